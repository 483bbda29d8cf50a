import 'server-only'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { SessionUser } from '@/lib/auth/session'
import { ensureInviteCode } from './invite-code'

export type MyInvite = {
  code: string
  link: string
  invitedCount: number
  /** Commission still counted as earned (taken-back records excluded): cents and points. */
  earnings: { balance: number; points: number }
  inviter?: { name: string; boundAt: string }
}

/** The sign-up link carrying a code: PUBLIC_URL (or the request's origin) + /login?invite=CODE. */
export function inviteLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/login?invite=${encodeURIComponent(code)}`
}

export function publicOrigin(fallback?: string): string {
  const url = env().PUBLIC_URL
  return url ? new URL(url).origin : (fallback ?? '')
}

/** GET /api/users/my/invite: the user's code (made on first view), link, count, earnings and inviter. */
export async function getMyInvite(user: SessionUser, origin?: string): Promise<MyInvite> {
  const code = await ensureInviteCode(user.id)
  const [self, invitedCount, sums] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: user.id }, select: { invitedAt: true, inviter: { select: { name: true } } } }),
    db().user.count({ where: { inviterId: user.id } }),
    db().commissionRecord.groupBy({ by: ['account'], where: { inviterId: user.id, status: 'SUCCESS' }, _sum: { amount: true } }),
  ])
  const sum = (account: 'BALANCE' | 'POINTS') => sums.find((s) => s.account === account)?._sum.amount ?? 0
  return {
    code,
    link: inviteLink(publicOrigin(origin), code),
    invitedCount,
    earnings: { balance: sum('BALANCE'), points: sum('POINTS') },
    ...(self.inviter && self.invitedAt ? { inviter: { name: self.inviter.name, boundAt: self.invitedAt.toISOString() } } : {}),
  }
}
