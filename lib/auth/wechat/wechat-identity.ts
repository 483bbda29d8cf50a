import 'server-only'
import type { Tx } from '@/lib/db'
import { badRequest, conflict, forbidden, notFound } from '@/lib/http/app-error'
import { generatedUsername } from '@/lib/users/generated-username'
import { grantSignupGift } from '@/lib/ledger/grant-signup-gift'
import { bindInviterAtSignUp } from '@/lib/invites/bind-inviter'

/** Who WeChat says the user is. `openid` is null for Open Platform logins, whose openid belongs to another app. */
export type WechatIdentity = { openid: string | null; unionid: string | null; nickname: string; avatar: string | null }

export type SignInUser = { id: string; tokenVersion: number; name: string }

export const WECHAT_TAKEN = '该微信已绑定其他账号，不能重复绑定'
export const BIND_SESSION_ENDED = '登录状态已失效，请重新登录后再绑定微信'

/** A display name from a WeChat nickname: trimmed, at most 32 characters. */
export function nameFromNickname(nickname: string | undefined): string {
  const name = Array.from((nickname ?? '').trim())
    .slice(0, 32)
    .join('')
  return name || '微信用户'
}

/** WeChat's avatar address, if it is a plain http(s) URL (it is shown as an image). */
export function avatarFromWechat(url: string | undefined): string | null {
  if (!url || url.length > 500) return null
  return /^https?:\/\/[^\s"'<>]+$/.test(url) ? url : null
}

const SELECT = { id: true, tokenVersion: true, name: true, bannedAt: true, wxOpenId: true, wxUnionId: true } as const

/**
 * The account of a WeChat user: found by unionid (the same person across this site's
 * WeChat apps), else by openid, else created with WeChat's name and avatar. Missing
 * identifiers are added to a found account when no other account holds them. A new
 * account is bound to the inviter of the link the sign-in started on (`invite`).
 */
export async function findOrCreateWechatUser(tx: Tx, identity: WechatIdentity, options: { invite?: string | null } = {}): Promise<SignInUser> {
  const found =
    (identity.unionid ? await tx.user.findUnique({ where: { wxUnionId: identity.unionid }, select: SELECT }) : null) ??
    (identity.openid ? await tx.user.findUnique({ where: { wxOpenId: identity.openid }, select: SELECT }) : null)

  if (!found) {
    if (!identity.openid && !identity.unionid) throw badRequest('微信未返回用户标识，无法登录')
    const created = await tx.user.create({
      data: {
        username: generatedUsername('wx'),
        name: nameFromNickname(identity.nickname),
        ...(identity.avatar ? { avatar: identity.avatar } : {}),
        wxOpenId: identity.openid,
        wxUnionId: identity.unionid,
        // Every way into a WeChat sign-in (the button inside WeChat, the QR code) stands under the terms notice.
        agreedTermsAt: new Date(),
      },
      select: SELECT,
    })
    await grantSignupGift(tx, created.id)
    await bindInviterAtSignUp(tx, created.id, options.invite)
    return created
  }
  if (found.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  const missing = {
    ...(!found.wxOpenId && identity.openid && !(await tx.user.findUnique({ where: { wxOpenId: identity.openid }, select: { id: true } }))
      ? { wxOpenId: identity.openid }
      : {}),
    ...(!found.wxUnionId && identity.unionid && !(await tx.user.findUnique({ where: { wxUnionId: identity.unionid }, select: { id: true } }))
      ? { wxUnionId: identity.unionid }
      : {}),
  }
  if (Object.keys(missing).length) await tx.user.update({ where: { id: found.id }, data: missing })
  return found
}

/**
 * Adds WeChat to the signed-in user's own account (docs/PROTOCOLS.md §8.4): refused when
 * the account already has another WeChat or the WeChat belongs to another account;
 * accounts are never merged.
 */
export async function bindWechatToUser(tx: Tx, userId: string, identity: WechatIdentity, tokenVersion: number | null): Promise<void> {
  if (!identity.openid) throw badRequest('微信未返回用户标识，无法绑定')
  // The row is taken first, so a sign-out everywhere cannot land between this check and the bind.
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${userId} FOR UPDATE`
  const user = await tx.user.findUnique({ where: { id: userId }, select: SELECT })
  if (!user) throw notFound('用户不存在')
  if (user.bannedAt) throw forbidden('账号已被禁用，请联系管理员')
  // Signed out everywhere (or the password changed) since the bind started: whoever started it may not be the owner.
  if (tokenVersion !== null && user.tokenVersion !== tokenVersion) throw forbidden(BIND_SESSION_ENDED)
  if (user.wxOpenId === identity.openid) return
  if (user.wxOpenId) throw conflict('你的账号已绑定其他微信')

  const holders = await tx.user.findMany({
    where: { OR: [{ wxOpenId: identity.openid }, ...(identity.unionid ? [{ wxUnionId: identity.unionid }] : [])], NOT: { id: userId } },
    select: { id: true },
  })
  if (holders.length) throw conflict(WECHAT_TAKEN)
  if (user.wxUnionId && identity.unionid && user.wxUnionId !== identity.unionid) throw conflict('你的账号已绑定其他微信')

  const { count } = await tx.user.updateMany({
    where: { id: userId, wxOpenId: null },
    data: { wxOpenId: identity.openid, ...(identity.unionid ? { wxUnionId: identity.unionid } : {}) },
  })
  if (count === 0) throw conflict('你的账号已绑定其他微信')
}
