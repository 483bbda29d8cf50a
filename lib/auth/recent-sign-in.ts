import { forbidden } from '@/lib/http/app-error'

/**
 * What would outlast the owner's 退出所有设备 or a new password (a first password, a phone
 * or a WeChat to sign in with) is added only within this time of signing in. A session
 * taken from its owner is usually older, and it cannot make itself younger: only a sign-in
 * issues a new token.
 */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000

export const SIGN_IN_TO_BIND_MOBILE = '为了账号安全，请重新登录后 10 分钟内绑定手机号'
export const SIGN_IN_TO_BIND_WECHAT = '为了账号安全，请重新登录后 10 分钟内绑定微信'

/** Whether the session was signed in (its token issued) at most RECENT_SIGN_IN_MS ago. */
export function isRecentSignIn(signedInAt: Date | null, now = Date.now()): boolean {
  return signedInAt !== null && now - signedInAt.getTime() <= RECENT_SIGN_IN_MS
}

/** 403 with `message` unless the session signed in recently. */
export function assertRecentSignIn(signedInAt: Date | null, message: string): void {
  if (!isRecentSignIn(signedInAt)) throw forbidden(message)
}
