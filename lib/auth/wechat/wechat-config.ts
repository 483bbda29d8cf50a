import { env, type TEnv } from '@/lib/env'
import { forbidden, serviceUnavailable } from '@/lib/http/app-error'
import { getAllConfigValues } from '@/lib/site-config/store'
import { WECHAT_MESSAGES } from './messages'

/** A WeChat app the server signs users in through: the 公众号 ('mp') or the Open Platform website app ('open'). */
export type WechatApp = { kind: 'mp' | 'open'; appId: string; secret: string }

export const WECHAT_DISABLED = WECHAT_MESSAGES.disabled
export const WECHAT_INCOMPLETE = WECHAT_MESSAGES.incomplete
export const WECHAT_NO_PUBLIC_URL = WECHAT_MESSAGES['no-public-url']
const OPEN_PLATFORM_MISSING = WECHAT_MESSAGES['open-missing']

/**
 * A production site needs PUBLIC_URL for WeChat: the OAuth callback and the QR codes carry
 * the site's address, which must be the domain registered with WeChat, not whatever Host
 * a request came with.
 */
export function needsPublicUrl(e: Pick<TEnv, 'NODE_ENV' | 'PUBLIC_URL'>): boolean {
  return e.NODE_ENV === 'production' && !e.PUBLIC_URL
}

async function read() {
  const values = await getAllConfigValues()
  const text = (name: string) => String(values.get(name) ?? '').trim()
  return {
    enabled: values.get('WX_ENABLED') === true,
    mp: { kind: 'mp' as const, appId: text('WX_APP_ID'), secret: text('WX_APP_SECRET') },
    open: { kind: 'open' as const, appId: text('WX_OPEN_APP_ID'), secret: text('WX_OPEN_APP_SECRET') },
  }
}

/** The 公众号 app (OAuth inside WeChat and the phone side of the desktop QR login). */
export async function wechatMpApp(): Promise<WechatApp> {
  const config = await read()
  if (!config.enabled) throw forbidden(WECHAT_DISABLED)
  if (!config.mp.appId || !config.mp.secret) throw serviceUnavailable(WECHAT_INCOMPLETE)
  if (needsPublicUrl(env())) throw serviceUnavailable(WECHAT_NO_PUBLIC_URL)
  return config.mp
}

/** The Open Platform website app (qrconnect), when its credentials are set. */
export async function wechatOpenApp(): Promise<WechatApp> {
  const config = await read()
  if (!config.enabled) throw forbidden(WECHAT_DISABLED)
  if (!config.open.appId || !config.open.secret) throw serviceUnavailable(OPEN_PLATFORM_MISSING)
  if (needsPublicUrl(env())) throw serviceUnavailable(WECHAT_NO_PUBLIC_URL)
  return config.open
}

/** What /login_by_wechat can offer, without revealing any credential. */
export async function wechatLoginOptions(): Promise<{ available: boolean; message: string | null; openPlatform: boolean }> {
  const config = await read()
  if (!config.enabled) return { available: false, message: WECHAT_DISABLED, openPlatform: false }
  if (!config.mp.appId || !config.mp.secret) return { available: false, message: WECHAT_INCOMPLETE, openPlatform: false }
  if (needsPublicUrl(env())) return { available: false, message: WECHAT_NO_PUBLIC_URL, openPlatform: false }
  return { available: true, message: null, openPlatform: Boolean(config.open.appId && config.open.secret) }
}
