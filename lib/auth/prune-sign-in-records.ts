import 'server-only'
import { db } from '@/lib/db'

export const PRUNE_SIGN_IN_JOB = 'prune-sign-in-records'

const HOUR = 60 * 60 * 1000

/**
 * Deletes what sign-in no longer needs: WeChat states and QR tickets an hour after they
 * expired, SMS codes a day after (kept that long for looking into abuse; the sending
 * limits live in the rate-limit counters, not here). Run by the worker.
 */
export async function pruneSignInRecords(now = new Date()): Promise<{ states: number; tickets: number; codes: number }> {
  const [states, tickets, codes] = await Promise.all([
    db().oAuthState.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - HOUR) } } }),
    db().loginTicket.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - HOUR) } } }),
    db().smsCode.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 24 * HOUR) } } }),
  ])
  return { states: states.count, tickets: tickets.count, codes: codes.count }
}
