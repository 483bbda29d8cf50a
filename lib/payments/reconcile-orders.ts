import 'server-only'
import { db } from '@/lib/db'
import { cancelAfterClose, closeAtProvider, queryProvider } from './provider-status'

export const RECONCILE_ORDERS_JOB = 'reconcile-orders'
export const RECONCILE_INTERVAL_MS = 20_000

/** When the active queries of a pending order come, counted from its creation; then every 30 minutes. */
export const QUERY_SCHEDULE_MS = [60_000, 3 * 60_000, 10 * 60_000, 30 * 60_000]
const LATER_EVERY_MS = 30 * 60_000
/** Orders claimed per batch; a full batch tells the worker to run the job again at once. */
export const RECONCILE_BATCH = 20

type Claimed = { id: string; outTradeNo: string; channel: 'WECHAT' | 'ALIPAY'; status: 'PENDING' | 'CANCELED'; createdAt: Date; expiresAt: Date }

/** A cancelled order's last look (its trade could still be paid) is tried again while the provider does not answer, for a day at most. */
const LAST_LOOK_GIVE_UP_MS = 24 * 60 * 60_000

/**
 * The next query: the schedule's next point after `now`, never past the expiry (when the order
 * is closed). Taken from the clock, not from queryCount, which a polling page raises too.
 */
export function nextQueryAt(createdAt: Date, expiresAt: Date, now: Date): Date {
  const planned = QUERY_SCHEDULE_MS.map((ms) => new Date(createdAt.getTime() + ms)).find((at) => at > now) ?? new Date(now.getTime() + LATER_EVERY_MS)
  return planned > expiresAt ? expiresAt : planned
}

/**
 * Lost notifications (docs/PRODUCT.md §14): pending provider orders whose query is due are
 * claimed (SKIP LOCKED, so several workers share the work) and moved to their next query
 * time before anyone calls out; each is then asked about, or, once expired, closed at the
 * provider and cancelled here (or, paid there but flagged for a mismatch, no longer asked about).
 * An order cancelled while its trade could still be paid is asked about once more after the
 * trade expires (`cancelAfterClose`): a payment found then is credited like any late one.
 */
export async function reconcileOrders(now = new Date()): Promise<number> {
  const due = await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Claimed[]>`
      SELECT "id", "outTradeNo", "channel"::text AS "channel", "status"::text AS "status", "createdAt", "expiresAt" FROM "Order"
      WHERE "status" IN ('PENDING', 'CANCELED') AND "nextQueryAt" <= ${now} AND "channel" <> 'BALANCE'
      ORDER BY "nextQueryAt" LIMIT ${RECONCILE_BATCH} FOR UPDATE SKIP LOCKED`
    for (const row of rows) {
      const expired = row.expiresAt <= now
      const retryAt = new Date(now.getTime() + 5 * 60_000)
      const gaveUp = row.status === 'CANCELED' && now.getTime() - row.expiresAt.getTime() > LAST_LOOK_GIVE_UP_MS
      await tx.order.update({
        where: { id: row.id },
        data: {
          queryCount: { increment: 1 },
          lastQueriedAt: now,
          nextQueryAt: gaveUp ? null : expired || row.status === 'CANCELED' ? retryAt : nextQueryAt(row.createdAt, row.expiresAt, now),
        },
      })
    }
    return rows
  })
  for (const order of due) {
    try {
      if (order.status === 'CANCELED') {
        // The last look: paid is credited (late, flagged); any answer at all ends the looking.
        const { state } = await queryProvider(order)
        if (state !== 'unknown') await db().order.updateMany({ where: { id: order.id, status: { not: 'PENDING' } }, data: { nextQueryAt: null } })
      } else if (order.expiresAt <= now) {
        const closed = await closeAtProvider(order)
        if (closed) await cancelAfterClose(order, closed, now)
        // Paid with the wrong amount or merchant (flagged): it can be neither closed nor credited, so it is left to the human the flag is for.
        else await db().order.updateMany({ where: { id: order.id, status: 'PENDING', flag: { not: null } }, data: { nextQueryAt: null } })
      } else {
        await queryProvider(order)
      }
    } catch (error) {
      console.error(`[payments] reconciling ${order.outTradeNo} failed:`, (error as Error).message)
    }
  }
  return due.length
}
