import 'server-only'
import { db } from '@/lib/db'
import { malformedReason, openKey } from './card-key'

/** The worker job that settles PENDING cards. */
export const CHECK_CARDS_JOB = 'check-pending-cards'
const CHUNK = 1000

type Claimed = { id: number; cardNo: string; keyHash: string; cardKeyEnc: string; batchId: number }
type Verdict = { id: number; ok: true } | { id: number; ok: false; reason: string }
/** The card that already holds a key: its number, and its batch (to tell 同批次 from 已有). */
export type KeyHolder = { cardNo: string; batchId: number }

const duplicateOf = (card: { batchId: number }, holder: KeyHolder) =>
  `与${holder.batchId === card.batchId ? '同批次' : '已有'}卡密重复（卡号 ${holder.cardNo}）`

/**
 * Decides a chunk of claimed PENDING cards, in id order: a malformed key fails; a key
 * that matches a ready card, or an earlier card of this chunk, fails as a duplicate,
 * 同批次 when that card came in the same batch (a batch is checked in chunks, so the
 * first copy may have been made ready by an earlier chunk), else 已有; the rest become
 * ready. Pure, so the rules are easy to test.
 */
export function judgeCards(claimed: Array<Omit<Claimed, 'cardKeyEnc'> & { key: string | null }>, readyByHash: Map<string, KeyHolder>): Verdict[] {
  const firstInChunk = new Map<string, KeyHolder>()
  return claimed.map((card) => {
    if (card.key === null) return { id: card.id, ok: false, reason: '卡密无法解密，请重新导入' }
    const malformed = malformedReason(card.key)
    if (malformed) return { id: card.id, ok: false, reason: malformed }
    const holder = readyByHash.get(card.keyHash) ?? firstInChunk.get(card.keyHash)
    if (holder) return { id: card.id, ok: false, reason: duplicateOf(card, holder) }
    firstInChunk.set(card.keyHash, { cardNo: card.cardNo, batchId: card.batchId })
    return { id: card.id, ok: true }
  })
}

/**
 * The background check (a worker job): claims up to CHUNK pending cards with SKIP
 * LOCKED, so any number of workers share the work, and settles them in one
 * transaction. Cards left PENDING by a crash are simply claimed again. Returns true
 * while there may be more to do.
 */
export async function checkPendingCards(): Promise<boolean> {
  try {
    return await db().$transaction(
      async (tx) => {
        const claimed = await tx.$queryRaw<Claimed[]>`
          SELECT "id", "cardNo", "keyHash", "cardKeyEnc", "batchId" FROM "Card"
          WHERE "status" = 'PENDING' ORDER BY "id" LIMIT ${CHUNK} FOR UPDATE SKIP LOCKED`
        if (claimed.length === 0) return false

        const hashes = [...new Set(claimed.map((c) => c.keyHash))]
        const ready = await tx.card.findMany({ where: { keyHash: { in: hashes }, status: 'SUCCESS' }, select: { keyHash: true, cardNo: true, batchId: true } })
        const verdicts = judgeCards(
          claimed.map(({ cardKeyEnc, ...c }) => ({ ...c, key: openKey(cardKeyEnc) })),
          new Map(ready.map((r) => [r.keyHash, { cardNo: r.cardNo, batchId: r.batchId }])),
        )

        const readyIds = verdicts.filter((v) => v.ok).map((v) => v.id)
        const failed = verdicts.filter((v): v is Extract<Verdict, { ok: false }> => !v.ok)
        if (readyIds.length) await tx.card.updateMany({ where: { id: { in: readyIds } }, data: { status: 'SUCCESS' } })
        if (failed.length) {
          await tx.$executeRaw`
            UPDATE "Card" AS c SET "status" = 'FAIL', "failReason" = v."reason"
            FROM unnest(${failed.map((f) => f.id)}::int[], ${failed.map((f) => f.reason)}::text[]) AS v("id", "reason")
            WHERE c."id" = v."id"`
        }
        return claimed.length === CHUNK
      },
      { timeout: 60_000 },
    )
  } catch (error) {
    // Another checker made a card with the same key ready at the same moment: the partial
    // unique index refused ours (P2002), or the two waited on each other in that index and
    // PostgreSQL broke the deadlock (P2034). Run again; the rerun sees the duplicate.
    const code = (error as { code?: string }).code
    if (code === 'P2002' || code === 'P2034') return true
    throw error
  }
}
