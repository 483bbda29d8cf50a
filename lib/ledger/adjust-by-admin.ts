import { randomUUID } from 'node:crypto'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, badRequest } from '@/lib/http/app-error'
import { postMovement } from './post-movement'

export type Adjustment = { points?: number; balance?: number; reason: string }

/**
 * An ADMIN adds to or takes from a user's points and/or balance (cents). Both moves,
 * their ledger rows and the audit record share one transaction; nothing may go below zero.
 */
export async function adjustByAdmin(actor: SessionUser, ip: string, userId: string, input: Adjustment) {
  const points = input.points ?? 0
  const balance = input.balance ?? 0
  if (points === 0 && balance === 0) throw badRequest('请填写要调整的积分或余额')
  const event = `admin-adjust:${randomUUID()}`
  const note = input.reason

  try {
    return await db().$transaction(async (tx) => {
      const before = await tx.user.findUnique({ where: { id: userId }, select: { points: true, balance: true } })
      if (!before) throw new AppError('NOT_FOUND', '用户不存在')
      if (points) await postMovement(tx, { userId, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: points, reference: `${event}:points`, note, actorId: actor.id })
      if (balance) await postMovement(tx, { userId, account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: balance, reference: `${event}:balance`, note, actorId: actor.id })
      const after = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { points: true, balance: true } })
      await recordAudit(tx, actor, ip, { action: 'user.adjust', targetType: 'User', targetId: userId, before, after: { ...after, points_delta: points, balance_delta: balance }, reason: input.reason })
      return after
    })
  } catch (error) {
    if (error instanceof AppError && (error.code === 'INSUFFICIENT_POINTS' || error.message === '余额不足')) {
      throw badRequest(error.code === 'INSUFFICIENT_POINTS' ? '扣减后积分不能小于 0' : '扣减后余额不能小于 0')
    }
    throw error
  }
}
