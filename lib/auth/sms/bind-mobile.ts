import 'server-only'
import { db } from '@/lib/db'
import { conflict, notFound } from '@/lib/http/app-error'
import { PROFILE_SELECT, toProfile, type Profile } from '@/lib/users/user-views'
import { checkSmsCode, markSmsCodeUsed } from './verify-code'

export const MOBILE_TAKEN = '该手机号已绑定其他账号，不能重复绑定'
const ALREADY_BOUND = '你的账号已绑定手机号，如需更换请联系管理员'

/**
 * A phone can be bound when the caller has none yet and no other account holds it:
 * accounts are never merged (docs/PROTOCOLS.md §8.4). Checked before a code is sent and
 * again when binding.
 */
export async function assertCanBindMobile(userId: string, mobile: string): Promise<void> {
  const [self, holder] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { mobile: true } }),
    db().user.findUnique({ where: { mobile }, select: { id: true } }),
  ])
  if (!self) throw notFound('用户不存在')
  if (self.mobile) throw conflict(self.mobile === mobile ? '你已绑定该手机号' : ALREADY_BOUND)
  if (holder && holder.id !== userId) throw conflict(MOBILE_TAKEN)
}

/** Binds a phone to the caller's account with the code sent to it for 'bind'. */
export async function bindMobile(userId: string, mobile: string, code: string, ip: string): Promise<Profile> {
  await assertCanBindMobile(userId, mobile)
  const codeId = await checkSmsCode(mobile, 'bind', code, ip, userId)
  try {
    return await db().$transaction(async (tx) => {
      await markSmsCodeUsed(tx, codeId)
      const { count } = await tx.user.updateMany({ where: { id: userId, mobile: null }, data: { mobile } })
      if (count === 0) throw conflict(ALREADY_BOUND)
      return toProfile(await tx.user.findUniqueOrThrow({ where: { id: userId }, select: PROFILE_SELECT }))
    })
  } catch (error) {
    // Another account took the phone between the check and the update.
    if ((error as { code?: string }).code === 'P2002') throw conflict(MOBILE_TAKEN)
    throw error
  }
}
