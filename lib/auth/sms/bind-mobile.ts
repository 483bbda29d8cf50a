import 'server-only'
import { SIGN_IN_TO_BIND_MOBILE, assertRecentSignIn } from '@/lib/auth/recent-sign-in'
import type { SessionUser } from '@/lib/auth/session'
import { db } from '@/lib/db'
import { conflict, notFound } from '@/lib/http/app-error'
import { PROFILE_SELECT, toProfile, type Profile } from '@/lib/users/user-views'
import { checkSmsCode, markSmsCodeUsed } from './verify-code'

export const MOBILE_TAKEN = '该手机号已绑定其他账号，不能重复绑定'
const ALREADY_BOUND = '你的账号已绑定手机号，如需更换请联系管理员'

/** The caller's own account has no phone yet (this says nothing about other accounts). */
async function assertHasNoMobile(userId: string, mobile: string): Promise<void> {
  const self = await db().user.findUnique({ where: { id: userId }, select: { mobile: true } })
  if (!self) throw notFound('用户不存在')
  if (self.mobile) throw conflict(self.mobile === mobile ? '你已绑定该手机号' : ALREADY_BOUND)
}

/**
 * A phone can be bound when the caller has none yet and no other account holds it:
 * accounts are never merged (docs/PROTOCOLS.md §8.4). Checked before a code is sent and
 * again when binding.
 */
export async function assertCanBindMobile(userId: string, mobile: string): Promise<void> {
  const [, holder] = await Promise.all([assertHasNoMobile(userId, mobile), db().user.findUnique({ where: { mobile }, select: { id: true } })])
  if (holder && holder.id !== userId) throw conflict(MOBILE_TAKEN)
}

/**
 * Binds a phone to the caller's account (signed in recently) with the code sent to it for 'bind'. Whether
 * another account holds the phone is said only after the code is checked (and the try
 * counted), so this answer cannot be used to probe which numbers are registered; the
 * phone's unique index answers it inside the transaction, which then rolls back and
 * leaves the code unused.
 */
export async function bindMobile(caller: Pick<SessionUser, 'id' | 'signedInAt'>, mobile: string, code: string, ip: string): Promise<Profile> {
  assertRecentSignIn(caller.signedInAt, SIGN_IN_TO_BIND_MOBILE)
  const userId = caller.id
  await assertHasNoMobile(userId, mobile)
  const codeId = await checkSmsCode(mobile, 'bind', code, ip, userId)
  try {
    return await db().$transaction(async (tx) => {
      await markSmsCodeUsed(tx, codeId)
      const { count } = await tx.user.updateMany({ where: { id: userId, mobile: null }, data: { mobile } })
      if (count === 0) throw conflict(ALREADY_BOUND)
      return toProfile(await tx.user.findUniqueOrThrow({ where: { id: userId }, select: PROFILE_SELECT }))
    })
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw conflict(MOBILE_TAKEN)
    throw error
  }
}
