import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { getConfigValue } from '@/lib/site-config/store'
import { signalJob } from '@/lib/signals/job-signal'
import { wakeLocalWorker } from '@/lib/signals/local-worker'
import { hashKey, maskKey, normalizeKey, sealKey } from './card-key'
import { CHECK_CARDS_JOB } from './check-pending-cards'
import type { TCardImport } from './schemas'

/**
 * Stores an admin's batch of keys as PENDING cards in one transaction (all or none),
 * then wakes the background check that makes each one ready or failed.
 */
export async function importCards(actor: SessionUser, ip: string, input: TCardImport): Promise<{ batchId: number; count: number }> {
  const points = input.points ?? (await getConfigValue<number>('CARD_DEFAULT_POINTS'))
  const keys = input.cards.map(normalizeKey)

  const batch = await db().$transaction(
    async (tx) => {
      const created = await tx.cardBatch.create({
        data: { note: input.note || null, points, expiresAt: input.expiresAt ?? null, count: keys.length, createdById: actor.id },
      })
      // One INSERT ... unnest for the whole batch: 10,000 rows in one statement.
      await tx.$executeRaw`
        INSERT INTO "Card" ("keyHash", "cardKeyEnc", "keyMask", "points", "batchId", "expiresAt")
        SELECT h, e, m, ${points}, ${created.id}, ${input.expiresAt ?? null}::timestamp
        FROM unnest(${keys.map(hashKey)}::text[], ${keys.map(sealKey)}::text[], ${keys.map(maskKey)}::text[]) WITH ORDINALITY AS t(h, e, m, n)
        ORDER BY n`
      await recordAudit(tx, actor, ip, {
        action: 'cards.import',
        targetType: 'CardBatch',
        targetId: String(created.id),
        after: { count: keys.length, points, note: input.note ?? null, expiresAt: input.expiresAt?.toISOString() ?? null },
      })
      await signalJob(tx, CHECK_CARDS_JOB)
      return created
    },
    { timeout: 60_000 },
  )
  wakeLocalWorker(CHECK_CARDS_JOB)
  return { batchId: batch.id, count: keys.length }
}
