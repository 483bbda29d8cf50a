import { env, type TEnv } from '@/lib/env'
import { serviceUnavailable } from '@/lib/http/app-error'
import { getAllConfigValues } from '@/lib/site-config/store'
import { aliyunSmsProvider } from './providers/aliyun'
import { logSmsProvider } from './providers/log'
import { tencentSmsProvider } from './providers/tencent'
import type { SmsProvider } from './providers/types'

export const LOG_PROVIDER_REFUSED = '本站短信服务尚未配置：log 方式只把验证码写入服务器日志，仅供试用和开发，生产部署中不可用。请管理员在“站点配置 → 短信”中选择阿里云或腾讯云短信'
export const SMS_INCOMPLETE = '短信服务配置不完整，请联系管理员'

/**
 * The `log` provider is for the embedded default (a trial) and development: in a
 * production deployment it would silently swallow every code.
 */
export function isLogProviderAllowed(e: Pick<TEnv, 'EMBEDDED_DATABASE' | 'NODE_ENV'>): boolean {
  return e.EMBEDDED_DATABASE || e.NODE_ENV !== 'production'
}

const ALIYUN_KEYS = ['ALIYUN_ACCESS_KEY_ID', 'ALIYUN_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'] as const
const TENCENT_KEYS = ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY', 'TENCENT_SMS_SDK_APP_ID', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATE_ID', 'TENCENT_SMS_REGION'] as const

/** The provider the site config names, ready to send; 503 with a clear message when it cannot be used. */
export async function currentSmsProvider(): Promise<SmsProvider> {
  const values = await getAllConfigValues()
  const read = (name: string) => String(values.get(name) ?? '').trim()
  const requireAll = (names: readonly string[]) => {
    const missing = names.filter((name) => !read(name))
    if (missing.length) {
      console.warn(`[sms] provider ${read('SMS_PROVIDER')} is missing settings: ${missing.join(', ')}`)
      throw serviceUnavailable(SMS_INCOMPLETE)
    }
  }

  switch (read('SMS_PROVIDER')) {
    case 'aliyun':
      requireAll(ALIYUN_KEYS)
      return aliyunSmsProvider({
        endpoint: env().ALIYUN_SMS_ENDPOINT,
        accessKeyId: read('ALIYUN_ACCESS_KEY_ID'),
        accessKeySecret: read('ALIYUN_ACCESS_KEY_SECRET'),
        signName: read('ALIYUN_SMS_SIGN_NAME'),
        templateCode: read('ALIYUN_SMS_TEMPLATE_CODE'),
      })
    case 'tencent':
      requireAll(TENCENT_KEYS)
      return tencentSmsProvider({
        endpoint: env().TENCENT_SMS_ENDPOINT,
        secretId: read('TENCENT_SECRET_ID'),
        secretKey: read('TENCENT_SECRET_KEY'),
        sdkAppId: read('TENCENT_SMS_SDK_APP_ID'),
        signName: read('TENCENT_SMS_SIGN_NAME'),
        templateId: read('TENCENT_SMS_TEMPLATE_ID'),
        region: read('TENCENT_SMS_REGION'),
      })
    default:
      if (!isLogProviderAllowed(env())) {
        console.warn('[sms] SMS_PROVIDER is "log" in a production deployment: refused; choose aliyun or tencent in the site config')
        throw serviceUnavailable(LOG_PROVIDER_REFUSED)
      }
      return logSmsProvider()
  }
}
