import { db } from '@/lib/db'
import * as send from '@/app/api/auth/sms/send/route'
import * as smsLogin from '@/app/api/auth/sms/login/route'
import { callRoute } from './call-route'

export const ALIYUN = {
  accessKeyId: 'LTAI5tFakeAccessKey01',
  accessKeySecret: 'fakeAliyunSecret0123456789abcd',
  signName: 'AI画室',
  templateCode: 'SMS_276510001',
}
export const TENCENT = {
  secretId: 'AKIDfakeSecretId0123456789abcdefgh',
  secretKey: 'fakeTencentSecretKey0123456789ab',
  sdkAppId: '1400787878',
  signName: 'AI画室',
  templateId: '1856001',
}

// The provider is chosen after its settings are filled in: while SMS sign-in or mobile
// binding is on, the site refuses to switch to a provider that cannot send yet.
export const aliyunSettings = () => ({
  ALIYUN_ACCESS_KEY_ID: ALIYUN.accessKeyId,
  ALIYUN_ACCESS_KEY_SECRET: ALIYUN.accessKeySecret,
  ALIYUN_SMS_SIGN_NAME: ALIYUN.signName,
  ALIYUN_SMS_TEMPLATE_CODE: ALIYUN.templateCode,
  SMS_PROVIDER: 'aliyun',
})

export const tencentSettings = () => ({
  TENCENT_SECRET_ID: TENCENT.secretId,
  TENCENT_SECRET_KEY: TENCENT.secretKey,
  TENCENT_SMS_SDK_APP_ID: TENCENT.sdkAppId,
  TENCENT_SMS_SIGN_NAME: TENCENT.signName,
  TENCENT_SMS_TEMPLATE_ID: TENCENT.templateId,
  SMS_PROVIDER: 'tencent',
})

let mobileCounter = 0
/** A mainland number no other test of the run uses. */
export function freshMobile(): string {
  return `139${String(process.pid % 1000).padStart(3, '0')}${String(++mobileCounter).padStart(5, '0')}`
}

let ipCounter = 0
export const freshIp = () => `192.0.2.${++ipCounter}`

export const sendCode = (mobile: string, purpose: 'login' | 'bind' = 'login', options: { ip?: string; token?: string } = {}) =>
  callRoute(send.POST, { body: { mobile, purpose }, ip: options.ip ?? freshIp(), token: options.token })

export const loginWithCode = (mobile: string, code: string, ip = freshIp()) => callRoute(smsLogin.POST, { body: { mobile, code }, ip })

/** Ends the running windows of these rate-limit counters, as if their time had passed. */
export async function endWindows(keyPrefix: string): Promise<void> {
  await db().rateLimitCounter.updateMany({ where: { key: { startsWith: keyPrefix } }, data: { resetAt: new Date(Date.now() - 1000) } })
}

/** A wrong code for this right one. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
