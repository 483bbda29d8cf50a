import { env } from '@/lib/env'
import { serviceUnavailable } from '@/lib/http/app-error'
import { smsProviderProblem } from '@/lib/site-config/sms-readiness'
import { getAllConfigValues } from '@/lib/site-config/store'
import { aliyunSmsProvider } from './providers/aliyun'
import { logSmsProvider } from './providers/log'
import { tencentSmsProvider } from './providers/tencent'
import type { SmsProvider } from './providers/types'

export const LOG_PROVIDER_REFUSED =
  '本站短信服务尚未配置：log 方式只把验证码写入服务器日志，仅供试用和开发，生产部署中不可用。请管理员在“站点配置 → 短信”中选择阿里云或腾讯云短信'
export const SMS_INCOMPLETE = '短信服务配置不完整，请联系管理员'

/** The provider the site config names, ready to send; 503 with a clear message when it cannot be used. */
export async function currentSmsProvider(): Promise<SmsProvider> {
  const values = await getAllConfigValues()
  const problem = smsProviderProblem(values, env())
  if (problem?.kind === 'log-refused') {
    console.warn('[sms] SMS_PROVIDER is "log" in a production deployment: refused; choose aliyun or tencent in the site config')
    throw serviceUnavailable(LOG_PROVIDER_REFUSED)
  }
  if (problem) {
    console.warn(`[sms] provider ${problem.provider} is missing settings: ${problem.names.join(', ')}`)
    throw serviceUnavailable(SMS_INCOMPLETE)
  }
  const text = (name: string) => String(values.get(name) ?? '').trim()
  switch (text('SMS_PROVIDER')) {
    case 'aliyun':
      return aliyunSmsProvider({
        endpoint: env().ALIYUN_SMS_ENDPOINT,
        accessKeyId: text('ALIYUN_ACCESS_KEY_ID'),
        accessKeySecret: text('ALIYUN_ACCESS_KEY_SECRET'),
        signName: text('ALIYUN_SMS_SIGN_NAME'),
        templateCode: text('ALIYUN_SMS_TEMPLATE_CODE'),
      })
    case 'tencent':
      return tencentSmsProvider({
        endpoint: env().TENCENT_SMS_ENDPOINT,
        secretId: text('TENCENT_SECRET_ID'),
        secretKey: text('TENCENT_SECRET_KEY'),
        sdkAppId: text('TENCENT_SMS_SDK_APP_ID'),
        signName: text('TENCENT_SMS_SIGN_NAME'),
        templateId: text('TENCENT_SMS_TEMPLATE_ID'),
        region: text('TENCENT_SMS_REGION'),
      })
    default:
      return logSmsProvider()
  }
}
