import 'server-only'
import { db } from '@/lib/db'
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

/**
 * The one place full keys leave the server: ready, unused, unheld, enabled, unexpired
 * cards as CSV (UTF-8 with BOM so Excel reads the Chinese header), every key exactly as
 * stored. ADMIN only, audited.
 */
export async function exportReadyCards(actor: SessionUser, ip: string, batchId?: number): Promise<CardExport> {
  const cards = await db().card.findMany({
    where: {
      status: 'SUCCESS',
      usedAt: null,
      holderId: null,
      disabledAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
      ...(batchId ? { batchId } : {}),
    },
    select: { id: true, cardNo: true, cardKeyEnc: true, points: true, expiresAt: true, batch: { select: { note: true } } },
    orderBy: { id: 'asc' },
  })
  const readable = cards.map((c) => ({ ...c, key: openKey(c.cardKeyEnc) }))
  const exported = readable.filter((c): c is typeof c & { key: string } => c.key !== null && !startsLikeFormula(c.key))
  const withheld = cards.length - exported.length

  const header = ['卡号', '卡密', '积分', '过期时间', '批次备注'].map(exactCell).join(',')
  const lines = exported.map((c) =>
    [exactCell(c.cardNo), exactCell(c.key), exactCell(c.points), exactCell(c.expiresAt ? beijingDateTime(c.expiresAt) : ''), textCell(c.batch.note ?? '')].join(
      ',',
    ),
  )
  await db().$transaction((tx) =>
    recordAudit(tx, actor, ip, {
      action: 'cards.export',
      targetType: 'CardBatch',
      targetId: batchId ? String(batchId) : null,
      after: { count: exported.length, withheld },
    }),
  )
  return { csv: '\uFEFF' + [header, ...lines].join('\r\n') + '\r\n', count: exported.length, withheld }
}
