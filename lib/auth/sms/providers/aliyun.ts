import { randomUUID } from 'node:crypto'
import { guardedFetch } from '@/lib/net/guarded-fetch'
import { aliyunPercentEncode, aliyunSignature } from './aliyun-signature'
import { SMS_TIMEOUT_MS, SmsSendError, readProviderJson, type SmsProvider } from './types'

export type AliyunSmsConfig = {
  endpoint: string
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
}

/** Aliyun SMS (dysmsapi, API version 2017-05-25): one SendSms RPC call, signed with HMAC-SHA1. */
export function aliyunSmsProvider(config: AliyunSmsConfig): SmsProvider {
  return {
    name: 'aliyun',
    async sendCode(mobile, code) {
      const params: Record<string, string> = {
        AccessKeyId: config.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: mobile,
        RegionId: 'cn-hangzhou',
        SignName: config.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: config.templateCode,
        TemplateParam: JSON.stringify({ code }),
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      }
      params.Signature = aliyunSignature(config.accessKeySecret, 'POST', params)
      const body = Object.entries(params)
        .map(([name, value]) => `${aliyunPercentEncode(name)}=${aliyunPercentEncode(value)}`)
        .join('&')

      let res: Response
      try {
        res = await guardedFetch(new URL('/', config.endpoint), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
        })
      } catch (error) {
        throw new SmsSendError(`aliyun: ${(error as Error).message}`)
      }
      const answer = await readProviderJson(res, 'aliyun')
      if (answer.Code !== 'OK') throw new SmsSendError(`aliyun: HTTP ${res.status} ${String(answer.Code)} ${String(answer.Message ?? '')}`)
    },
  }
}
