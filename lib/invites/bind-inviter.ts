import 'server-only'
import { db, type Tx } from '@/lib/db'
import type { SessionUser } from '@/lib/auth/session'
import { AppError, badRequest, conflict, notFound } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { getMyInvite, type MyInvite } from './my-invite'
import { normalizeInviteCode } from './schemas'
import { getInviteSettings } from './settings'

export const INVITE_MESSAGES = {
  unknown: '邀请码不存在，请检查后重试',
  self: '不能填写自己的邀请码',
  already: '你已绑定过邀请人，邀请人只能绑定一次',
  cycle: '对方是你直接或间接邀请的用户，不能绑定为你的邀请人',
  tooDeep: '邀请关系层级过深，无法绑定',
  banned: '该邀请码已失效',
} as const

/** How far up an inviter chain the cycle check walks; a chain longer than this is refused. */
export const MAX_CHAIN_DEPTH = 64

/**
 * Makes `code`'s owner the inviter of `inviteeId`, inside the caller's transaction: once
 * only, never oneself, never a cycle. Every binding in the database takes one transaction
 * advisory lock first, so two bindings at once (A→B and B→A) are decided one after the
 * other and the second sees the first's row: the chain walk above the inviter then finds
 * the invitee and refuses. Then the optional reward in points for both.
 */
export async function bindInviter(tx: Tx, inviteeId: string, rawCode: string): Promise<{ id: string; name: string }> {
  const code = normalizeInviteCode(rawCode)
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('aiimg:invite-binding'))`
  const inviter = code ? await tx.user.findUnique({ where: { inviteCode: code }, select: { id: true, name: true, bannedAt: true } }) : null
  if (!inviter) throw notFound(INVITE_MESSAGES.unknown)
  if (inviter.id === inviteeId) throw badRequest(INVITE_MESSAGES.self)
  if (inviter.bannedAt) throw badRequest(INVITE_MESSAGES.banned)
  const invitee = await tx.user.findUnique({ where: { id: inviteeId }, select: { inviterId: true } })
  if (!invitee) throw notFound('用户不存在')
  if (invitee.inviterId) throw conflict(INVITE_MESSAGES.already)

  // Up the chain from the inviter: meeting the invitee would close a ring.
  let cursor: string | null = inviter.id
  for (let depth = 0; cursor; depth++) {
    if (depth >= MAX_CHAIN_DEPTH) throw badRequest(INVITE_MESSAGES.tooDeep)
    const row: { inviterId: string | null } | null = await tx.user.findUnique({ where: { id: cursor }, select: { inviterId: true } })
    cursor = row?.inviterId ?? null
    if (cursor === inviteeId) throw badRequest(INVITE_MESSAGES.cycle)
  }

  const { count } = await tx.user.updateMany({ where: { id: inviteeId, inviterId: null }, data: { inviterId: inviter.id, invitedAt: new Date() } })
  if (count === 0) throw conflict(INVITE_MESSAGES.already)

  const { inviteReward } = await getInviteSettings(tx)
  if (inviteReward > 0) {
    for (const [userId, who] of [
      [inviter.id, 'inviter'],
      [inviteeId, 'invitee'],
    ] as const) {
      try {
        await postMovement(tx, {
          userId,
          account: 'POINTS',
          kind: 'INVITE_REWARD',
          amount: inviteReward,
          reference: `invite:${inviteeId}:reward:${who}`,
          note: who === 'inviter' ? '邀请好友奖励' : '接受邀请奖励',
        })
      } catch (error) {
        // A column at its ceiling: the binding stands without this reward.
        if (!(error instanceof AppError)) throw error
      }
    }
  }
  return { id: inviter.id, name: inviter.name }
}

/** POST /api/users/bind_invite: the signed-in user types an inviter's code. */
export async function bindInvite(user: SessionUser, code: string, origin?: string): Promise<MyInvite> {
  await db().$transaction((tx) => bindInviter(tx, user.id, code))
  return getMyInvite(user, origin)
}

/**
 * A sign-in that creates an account (password, SMS, WeChat) with an invite code from the
 * link: binds in the same transaction. A code that cannot bind (unknown, its owner banned)
 * never stops the sign-up; the new user can still bind one later on /my/invite.
 */
export async function bindInviterAtSignUp(tx: Tx, userId: string, code: string | null | undefined): Promise<boolean> {
  if (!code || !normalizeInviteCode(code)) return false
  try {
    await bindInviter(tx, userId, code)
    return true
  } catch (error) {
    if (error instanceof AppError) return false
    throw error
  }
}
