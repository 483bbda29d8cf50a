import 'server-only'
import { db } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import { conflict } from '@/lib/http/app-error'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { beijingDateTime } from '@/lib/beijing-time'
import { openKey, startsLikeFormula } from './card-key'

/** Quoted as RFC 4180 asks, and otherwise exactly as given. */
const exactCell = (value: string | number) => `"${String(value).replace(/"/g, '""')}"`

/** For free text (batch notes): a leading = + - @ (or tab, CR) would run as a formula, so it gets a '. */
const textCell = (value: string) => exactCell(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value)

export type CardExport = {
  csv: string
  count: number
  /**
   * Ready cards left out: keys starting with = + - @ (imported before such keys were
   * refused; written exactly they would run as formulas, written with a ' they would be
   * wrong keys) and keys that no longer decrypt. They can still be assigned, redeemed or
   * disabled.
   */
  withheld: number
}

export type ExportScope = {
  batchId?: number
  /** Only cards never exported before: a new file for a new reseller, with no key that is already out. */
  onlyNew?: boolean
}

export const NOTHING_NEW_TO_EXPORT = '没有未导出过的可用卡密'

type ExportedCard = { id: number; cardNo: string; cardKeyEnc: string; points: number; expiresAt: Date | null; note: string | null }

/**
 * The one place full keys leave the server: ready, unused, unheld, enabled, unexpired
 * cards as CSV (UTF-8 with BOM so Excel reads the Chinese header), every key exactly as
 * stored. ADMIN only, audited. Each card written is marked exported (`exportedAt`, the first
 * time) in the same transaction, its row locked meanwhile: an assign waits and is then
 * refused, and two exports of new cards at once get different cards.
 */
export async function exportReadyCards(actor: SessionUser, ip: string, scope: ExportScope = {}): Promise<CardExport> {
  const { batchId, onlyNew = false } = scope
  return db().$transaction(
    async (tx) => {
      const cards = await tx.$queryRaw<ExportedCard[]>`
        SELECT c."id", c."cardNo", c."cardKeyEnc", c."points", c."expiresAt", b."note"
        FROM "Card" c JOIN "CardBatch" b ON b."id" = c."batchId"
        WHERE c."status" = 'SUCCESS' AND c."usedAt" IS NULL AND c."holderId" IS NULL AND c."disabledAt" IS NULL
          AND (c."expiresAt" IS NULL OR c."expiresAt" > now())
          ${batchId ? Prisma.sql`AND c."batchId" = ${batchId}` : Prisma.empty}
          ${onlyNew ? Prisma.sql`AND c."exportedAt" IS NULL` : Prisma.empty}
        ORDER BY c."id" ASC
        FOR UPDATE OF c`
      const readable = cards.map((c) => ({ ...c, key: openKey(c.cardKeyEnc) }))
      const exported = readable.filter((c): c is typeof c & { key: string } => c.key !== null && !startsLikeFormula(c.key))
      const withheld = cards.length - exported.length
      if (onlyNew && exported.length === 0) throw conflict(NOTHING_NEW_TO_EXPORT)

      const ids = exported.map((c) => c.id)
      if (ids.length) await tx.$executeRaw`UPDATE "Card" SET "exportedAt" = now() WHERE "id" = ANY(${ids}::int[]) AND "exportedAt" IS NULL`
      await recordAudit(tx, actor, ip, {
        action: 'cards.export',
        targetType: 'CardBatch',
        targetId: batchId ? String(batchId) : null,
        after: { count: exported.length, withheld, onlyNew },
      })
      const header = ['卡号', '卡密', '积分', '过期时间', '批次备注'].map(exactCell).join(',')
      const lines = exported.map((c) =>
        [exactCell(c.cardNo), exactCell(c.key), exactCell(c.points), exactCell(c.expiresAt ? beijingDateTime(c.expiresAt) : ''), textCell(c.note ?? '')].join(
          ',',
        ),
      )
      return { csv: '\uFEFF' + [header, ...lines].join('\r\n') + '\r\n', count: exported.length, withheld }
    },
    { timeout: 120_000 },
  )
}
