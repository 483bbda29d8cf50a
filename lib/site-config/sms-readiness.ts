import type { TEnv } from '@/lib/env'

/**
 * The `log` provider is for the embedded default (a trial) and development: in a
 * production deployment it would silently swallow every code.
 */
export function isLogProviderAllowed(e: Pick<TEnv, 'EMBEDDED_DATABASE' | 'NODE_ENV'>): boolean {
  return e.EMBEDDED_DATABASE || e.NODE_ENV !== 'production'
}

export const ALIYUN_KEYS = ['ALIYUN_ACCESS_KEY_ID', 'ALIYUN_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'] as const
export const TENCENT_KEYS = [
  'TENCENT_SECRET_ID',
  'TENCENT_SECRET_KEY',
  'TENCENT_SMS_SDK_APP_ID',
  'TENCENT_SMS_SIGN_NAME',
  'TENCENT_SMS_TEMPLATE_ID',
  'TENCENT_SMS_REGION',
] as const
/** Every setting that decides whether SMS can be sent. */
export const SMS_PROVIDER_SETTINGS: readonly string[] = ['SMS_PROVIDER', ...ALIYUN_KEYS, ...TENCENT_KEYS]

type Settings = ReadonlyMap<string, unknown>
type EnvForSms = Pick<TEnv, 'EMBEDDED_DATABASE' | 'NODE_ENV'>

/** Why the configured provider cannot send: the log provider in production, or settings left empty. */
export type SmsProviderProblem = { kind: 'log-refused' } | { kind: 'missing'; provider: 'aliyun' | 'tencent'; names: string[] }

const read = (values: Settings, name: string) => String(values.get(name) ?? '').trim()

/** What keeps these settings from sending a code; null when the provider can be used. */
export function smsProviderProblem(values: Settings, e: EnvForSms): SmsProviderProblem | null {
  const provider = read(values, 'SMS_PROVIDER')
  if (provider === 'aliyun' || provider === 'tencent') {
    const names = (provider === 'aliyun' ? ALIYUN_KEYS : TENCENT_KEYS).filter((name) => !read(values, name))
    return names.length ? { kind: 'missing', provider, names } : null
  }
  return isLogProviderAllowed(e) ? null : { kind: 'log-refused' }
}
