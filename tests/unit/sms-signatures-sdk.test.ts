import OpenApiUtil from '@alicloud/openapi-util'
import Sign from 'tencentcloud-sdk-nodejs-common/tencentcloud/common/sign'
import { describe, expect, it } from 'vitest'
import { aliyunSignature } from '@/lib/auth/sms/providers/aliyun-signature'
import { tc3Sign } from '@/lib/auth/sms/providers/tencent-signature'

// Our hand-written SMS request signing against the official SDKs' own signing code on
// the same inputs (fixed time, nonce and keys): @alicloud/openapi-util's RPC signature
// (what Aliyun's SDK signs SendSms with) and tencentcloud-sdk-nodejs-common's TC3 signer.
// Both SDKs are dev dependencies only (docs/DECISIONS.md, "SMS request signing").

describe('Aliyun SendSms: ours equals @alicloud/openapi-util getRPCSignature', () => {
  const sendSms = (overrides: Record<string, string> = {}): Record<string, string> => ({
    AccessKeyId: 'LTAI5tExampleKeyId',
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: '13800138000',
    RegionId: 'cn-hangzhou',
    SignName: '阿里云短信测试',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
    SignatureVersion: '1.0',
    TemplateCode: 'SMS_154950909',
    TemplateParam: '{"code":"123456"}',
    Timestamp: '2026-11-24T08:00:00Z',
    Version: '2017-05-25',
    ...overrides,
  })
  const secret = 'exampleAccessKeySecret/+=='

  it.each([
    ['the request the provider sends', {}],
    ['a sign name with spaces and RFC 3986 reserved characters', { SignName: "AI 画室 (测试)*!'~" }],
    ['a template parameter with quotes, slashes and a plus', { TemplateParam: '{"code":"12 34+/\\"5"}' }],
  ])('%s, by GET and by POST', (_case, overrides) => {
    const params = sendSms(overrides)
    for (const method of ['GET', 'POST'] as const) expect(aliyunSignature(secret, method, params)).toBe(OpenApiUtil.getRPCSignature(params, method, secret))
  })
})

describe('Tencent SendSms: ours equals tencentcloud-sdk-nodejs-common Sign.sign3', () => {
  const payload = { PhoneNumberSet: ['+8613800138000'], SmsSdkAppId: '1400006666', SignName: '腾讯云', TemplateId: '449739', TemplateParamSet: ['123456'] }
  const keys = { secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE', secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE' }
  const contentType = 'application/json; charset=utf-8'

  // The SDK signs content-type and host; ours signs whatever headers it is given.
  it.each([
    ['a time on the day before in Beijing', 1551113065],
    ['an ordinary time', 1795000000],
  ])('the same Authorization for %s', (_case, timestamp) => {
    const sdk = Sign.sign3({
      method: 'POST',
      url: 'https://sms.tencentcloudapi.com/',
      payload,
      timestamp,
      service: 'sms',
      ...keys,
      multipart: false,
      boundary: '',
      headers: { 'Content-Type': contentType },
    })
    const ours = tc3Sign({
      ...keys,
      service: 'sms',
      timestamp,
      method: 'POST',
      headers: { 'Content-Type': contentType, Host: 'sms.tencentcloudapi.com' },
      payload: JSON.stringify(payload),
    })
    expect(ours.authorization).toBe(sdk)
  })
})
