import 'server-only'
import { randomUUID } from 'node:crypto'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, badRequest, conflict } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from './post-movement'

export type Adjustment = {
  points?: number
  balance?: number
  reason: string
}

export type AdjustResult = { points: number; balance: number }

export const REPLAY_CONFLICT_MESSAGE = '该调整请求已按不同的金额或用户处理过，请关闭对话框后重新调整'

const referencesOf = (key: string) => ({ points: `admin-adjust:${key}:points`, balance: `admin-adjust:${key}:balance` })

/**
 * An ADMIN adds to or takes from a user's points and/or balance (cents). Both moves,
 * their ledger rows and the audit record share one transaction; nothing may go below zero.
 * With an idempotency key (the Idempotency-Key header, or an older client's body requestId)
 * it happens exactly once per key: the ledger references are admin-adjust:<key>:points and
 * :balance, so a replay (a retry after a lost answer, a double click) is answered with the
 * first result instead of booking again; the same key with other amounts or another user
 * is a 409. Without a key each call is a new adjustment (its references get a fresh UUID).
 */
export async function adjustByAdmin(actor: SessionUser, ip: string, userId: string, input: Adjustment, idempotencyKey?: string): Promise<AdjustResult> {
  const points = input.points ?? 0
  const balance = input.balance ?? 0
  if (points === 0 && balance === 0) throw badRequest('请填写要调整的积分或余额')
  const key = idempotencyKey ?? randomUUID()
  const refs = referencesOf(key)
  const request = { userId, points, balance, requestId: key }

  if (idempotencyKey) {
    const earlier = await replayOf(request)
    if (earlier) return earlier
  }
  const note = input.reason

  try {
    return await db().$transaction(async (tx) => {
      // Locked first, so the audit's before and after differ by exactly this adjustment (a spend cannot land between).
      const [before] = await tx.$queryRaw<{ points: number; balance: number }[]>`
        SELECT "points", "balance" FROM "User" WHERE "id" = ${userId} FOR UPDATE`
      if (!before) throw new AppError('NOT_FOUND', '用户不存在')
      if (points) await postMovement(tx, { userId, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: points, reference: refs.points, note, actorId: actor.id })
      if (balance)
        await postMovement(tx, { userId, account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: balance, reference: refs.balance, note, actorId: actor.id })
      const after = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { points: true, balance: true } })
      await recordAudit(tx, actor, ip, {
        action: 'user.adjust',
        targetType: 'User',
        targetId: userId,
        before,
        after: { ...after, points_delta: points, balance_delta: balance, requestId: key },
        reason: input.reason,
      })
      return after
    })
  } catch (error) {
    const overdraws = error instanceof AppError && (error.code === 'INSUFFICIENT_POINTS' || error.message === '余额不足')
    // The same request committed while this one ran: answer as the replay it is. A copy of
    // a debit waits for the first one's row lock and then finds too little left to book it again.
    if (error instanceof AlreadyBookedError || (overdraws && idempotencyKey)) {
      const first = await replayOf(request)
      if (first) return first
    }
    if (overdraws) throw badRequest(error.code === 'INSUFFICIENT_POINTS' ? '扣减后积分不能小于 0' : '扣减后余额不能小于 0')
    throw error
  }
}

/**
 * The result of an earlier booking of this request id, or null when there was none.
 * Throws 409 when the id was booked for another user or other amounts.
 */
async function replayOf(request: { userId: string; points: number; balance: number; requestId: string }): Promise<AdjustResult | null> {
  const refs = referencesOf(request.requestId)
  const rows = await db().ledgerEntry.findMany({
    where: { reference: { in: [refs.points, refs.balance] } },
    select: { userId: true, reference: true, amount: true },
  })
  if (rows.length === 0) return null
  const amountOf = (reference: string) => rows.find((r) => r.reference === reference)?.amount ?? 0
  const isSame = rows.every((r) => r.userId === request.userId) && amountOf(refs.points) === request.points && amountOf(refs.balance) === request.balance
  if (!isSame) throw conflict(REPLAY_CONFLICT_MESSAGE)
  // The audit record was written in the same transaction as the rows: it holds the first answer.
  const audit = await db().adminAuditLog.findFirstOrThrow({
    where: { action: 'user.adjust', targetType: 'User', targetId: request.userId, after: { path: ['requestId'], equals: request.requestId } },
    select: { after: true },
  })
  const after = audit.after as { points: number; balance: number }
  return { points: after.points, balance: after.balance }
}
