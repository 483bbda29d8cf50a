import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { getConfigValue } from '@/lib/site-config/store'
import { signalJob, wakeLocalWorker } from '@/lib/worker/job-signal'
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
      await tx.card.createMany({
        data: keys.map((key) => ({
          keyHash: hashKey(key),
          cardKeyEnc: sealKey(key),
          keyMask: maskKey(key),
          points,
          batchId: created.id,
          expiresAt: input.expiresAt ?? null,
        })),
      })
      await recordAudit(tx, actor, ip, { action: 'cards.import', targetType: 'CardBatch', targetId: String(created.id), after: { count: keys.length, points, note: input.note ?? null, expiresAt: input.expiresAt?.toISOString() ?? null } })
      await signalJob(tx, CHECK_CARDS_JOB)
      return created
    },
    { timeout: 60_000 },
  )
  wakeLocalWorker(CHECK_CARDS_JOB)
  return { batchId: batch.id, count: keys.length }
}
