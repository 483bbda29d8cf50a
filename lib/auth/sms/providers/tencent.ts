import { guardedFetch } from '@/lib/net/guarded-fetch'
import { tc3Sign } from './tencent-signature'
import { SMS_TIMEOUT_MS, SmsSendError, readProviderJson, type SmsProvider } from './types'

export type TencentSmsConfig = {
  endpoint: string
  secretId: string
  secretKey: string
  sdkAppId: string
  signName: string
  templateId: string
  region: string
}

type SendStatus = { Code?: string; Message?: string }
type TencentAnswer = { Response?: { Error?: { Code?: string; Message?: string }; SendStatusSet?: SendStatus[] } }

/** Tencent Cloud SMS (API 3.0, version 2021-01-11): one SendSms call, signed with TC3-HMAC-SHA256. */
export function tencentSmsProvider(config: TencentSmsConfig): SmsProvider {
  return {
    name: 'tencent',
    async sendCode(mobile, code) {
      const url = new URL('/', config.endpoint)
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: config.sdkAppId,
        SignName: config.signName,
        TemplateId: config.templateId,
        TemplateParamSet: [code],
      })
      const timestamp = Math.floor(Date.now() / 1000)
      const signed = { 'Content-Type': 'application/json; charset=utf-8', Host: url.host, 'X-TC-Action': 'SendSms' }
      const { authorization } = tc3Sign({
        secretId: config.secretId,
        secretKey: config.secretKey,
        service: 'sms',
        timestamp,
        method: 'POST',
        headers: signed,
        payload,
      })

      let res: Response
      try {
        // The request sends Host itself, with exactly url.host.
        res = await guardedFetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': signed['Content-Type'],
            'X-TC-Action': 'SendSms',
            'X-TC-Version': '2021-01-11',
            'X-TC-Timestamp': String(timestamp),
            'X-TC-Region': config.region,
            Authorization: authorization,
          },
          body: payload,
          signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
        })
      } catch (error) {
        throw new SmsSendError(`tencent: ${(error as Error).message}`)
      }
      const answer = (await readProviderJson(res, 'tencent')) as TencentAnswer
      const error = answer.Response?.Error
      if (error) throw new SmsSendError(`tencent: ${error.Code} ${error.Message ?? ''}`)
      const status = answer.Response?.SendStatusSet?.[0]
      if (status?.Code !== 'Ok') throw new SmsSendError(`tencent: ${status?.Code ?? 'no SendStatusSet'} ${status?.Message ?? ''}`)
    },
  }
}
