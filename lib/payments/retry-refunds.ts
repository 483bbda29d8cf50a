import 'server-only'
import { db } from '@/lib/db'
import { ASKING_FREE, askProvider, endAskingTurn, giveBack, markRefunded, REFUNDING_COLUMNS, takeAskingTurnOf, type Refunding } from './refund-order'

export const RETRY_REFUNDS_JOB = 'retry-refunds'
/** How long a refund waits after its last asking before the worker asks again. */
export const REFUND_RETRY_AFTER_MS = 60_000
const BATCH = 20

/**
 * Refunds whose provider answer was unknown (a timeout, a 5xx, WeChat's PROCESSING), or that a
 * crash left between the take-back and the asking: each is claimed (SKIP LOCKED, its
 * "updatedAt" moved to now so the next asking is a minute away) and, unless an admin's press
 * holds its asking turn, asked again with its own refund number. A refusal heard here gives
 * the credit back and flags the order, since no admin is waiting for the answer. Answers how
 * many were asked.
 */
export async function retryRefunds(now = new Date()): Promise<number> {
  const due = await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Refunding[]>`
      SELECT ${REFUNDING_COLUMNS} FROM "Order"
      WHERE "refundNo" IS NOT NULL AND "refundedAt" IS NULL AND "updatedAt" <= ${new Date(now.getTime() - REFUND_RETRY_AFTER_MS)}
        AND ${ASKING_FREE}
      ORDER BY "updatedAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`
    if (rows.length) await tx.order.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { updatedAt: now } })
    return rows
  })
  let asked = 0
  for (const order of due) {
    // Taken just before asking: an admin's press since the claim may hold it.
    const askingUntil = await takeAskingTurnOf(order)
    if (!askingUntil) continue
    asked++
    try {
      const answer = await askProvider(order, { askedBefore: true })
      if (answer.outcome === 'done') await markRefunded(order)
      if (answer.outcome === 'refused') await giveBack(order, { flag: `${answer.message}；用户所得已退回，请核实` })
    } catch (error) {
      console.error(`[payments] asking again for the refund of ${order.outTradeNo} failed:`, (error as Error).message)
    } finally {
      await endAskingTurn(order, askingUntil)
    }
  }
  return asked
}
