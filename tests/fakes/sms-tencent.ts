// A fake Tencent Cloud SMS endpoint (API 3.0, SendSms 2021-01-11): checks the request the
// way Tencent Cloud does — X-TC-* headers, a timestamp within 5 minutes, and the
// TC3-HMAC-SHA256 signature recomputed from the headers it names and the body —
// answers Tencent's JSON (errors are HTTP 200 with Response.Error), and records codes.
import { createHash, createHmac } from 'node:crypto'
import type http from 'node:http'
import { jsonBody, record, sendJson, startServer, type RecordedRequest } from './common'
import type { SentSms } from './sms-aliyun'

export type FakeTencentSmsOptions = { secretId: string; secretKey: string; sdkAppId: string; signName: string; templateId: string }
export type TencentBehaviour = 'ok' | 'limited' | 'down'

const AUTH = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([a-z]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()

export async function startFakeTencentSms(options: FakeTencentSmsOptions) {
  const calls: RecordedRequest[] = []
  const sent: SentSms[] = []
  let behaviour: TencentBehaviour = 'ok'
  const respond = (res: http.ServerResponse, body: object) => sendJson(res, 200, { Response: { ...body, RequestId: crypto.randomUUID() } })
  const error = (res: http.ServerResponse, Code: string, Message: string) => respond(res, { Error: { Code, Message } })

  function checkSignature(req: http.IncomingMessage, raw: Buffer): string | null {
    const match = AUTH.exec(req.headers.authorization ?? '')
    if (!match) return 'AuthFailure.InvalidAuthorization'
    const [, secretId, date, service, signedHeaders = '', signature] = match
    if (secretId !== options.secretId) return 'AuthFailure.SecretIdNotFound'
    const timestamp = Number(req.headers['x-tc-timestamp'])
    if (!Number.isInteger(timestamp) || Math.abs(timestamp - Date.now() / 1000) > 300) return 'AuthFailure.SignatureExpire'
    if (service !== 'sms' || date !== new Date(timestamp * 1000).toISOString().slice(0, 10)) return 'AuthFailure.SignatureFailure'
    const names = signedHeaders.split(';')
    if (!names.includes('content-type') || !names.includes('host')) return 'AuthFailure.SignatureFailure'
    const canonicalHeaders = names
      .map(
        (name) =>
          `${name}:${String(req.headers[name] ?? '')
            .trim()
            .toLowerCase()}\n`,
      )
      .join('')
    const canonicalRequest = [req.method, '/', '', canonicalHeaders, signedHeaders, sha256(raw)].join('\n')
    const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/${service}/tc3_request`, sha256(canonicalRequest)].join('\n')
    const key = hmac(hmac(hmac(`TC3${options.secretKey}`, date), service), 'tc3_request')
    return createHmac('sha256', key).update(stringToSign).digest('hex') === signature ? null : 'AuthFailure.SignatureFailure'
  }

  const fake = await startServer((req, res, url, raw) => {
    const body = jsonBody(raw) as Record<string, unknown> | null | undefined
    record(calls, req, url, body)
    if (req.method === 'GET' && url.pathname === '/__fake/messages')
      return sendJson(
        res,
        200,
        sent.filter((m) => !url.searchParams.get('mobile') || m.mobile === url.searchParams.get('mobile')),
      )
    if (req.method === 'POST' && url.pathname === '/__fake/behaviour') {
      behaviour = (body as { behaviour: TencentBehaviour }).behaviour
      return sendJson(res, 200, { ok: true })
    }
    if (behaviour === 'down') return sendJson(res, 500, { message: 'internal error' })

    if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').startsWith('application/json'))
      return error(res, 'UnsupportedProtocol', 'POST with Content-Type: application/json is required.')
    const failure = checkSignature(req, raw)
    if (failure) return error(res, failure, 'The provided credentials could not be validated.')
    if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11')
      return error(res, 'InvalidAction', 'The action or version is not supported.')
    if (!req.headers['x-tc-region']) return error(res, 'MissingParameter', 'The request is missing a required parameter `Region`.')
    if (!body) return error(res, 'InvalidParameter', 'The request body is not JSON.')
    if (body.SmsSdkAppId !== options.sdkAppId) return error(res, 'FailedOperation.SmsSdkAppIdVerifyFail', 'SdkAppId verification failed.')
    if (body.SignName !== options.signName) return error(res, 'FailedOperation.SignatureIncorrectOrUnapproved', 'The signature is incorrect or unapproved.')
    if (body.TemplateId !== options.templateId) return error(res, 'FailedOperation.TemplateIncorrectOrUnapproved', 'The template is incorrect or unapproved.')
    const phones = body.PhoneNumberSet
    const params = body.TemplateParamSet
    if (!Array.isArray(phones) || phones.length !== 1 || !Array.isArray(params) || typeof params[0] !== 'string')
      return error(res, 'InvalidParameterValue.TemplateParameterFormatError', 'The template parameters are malformed.')
    const phone = String(phones[0])
    const mobile = /^\+861[3-9]\d{9}$/.test(phone) ? phone.slice(3) : null
    const status = (Code: string, Message: string) =>
      respond(res, {
        SendStatusSet: [{ SerialNo: crypto.randomUUID(), PhoneNumber: phone, Fee: Code === 'Ok' ? 1 : 0, SessionContext: '', Code, Message, IsoCode: 'CN' }],
      })
    if (!mobile) return status('InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number')
    if (behaviour === 'limited')
      return status(
        'LimitExceeded.PhoneNumberThirtySecondLimit',
        'the number of sms messages sent from a single mobile number within 30 seconds exceeds the upper limit',
      )
    sent.push({ mobile, code: params[0], at: Date.now() })
    status('Ok', 'send success')
  })

  return {
    url: fake.url,
    calls,
    sent,
    close: fake.close,
    setBehaviour(next: TencentBehaviour) {
      behaviour = next
    },
    lastCode(mobile: string): string | undefined {
      return sent.filter((m) => m.mobile === mobile).at(-1)?.code
    },
  }
}
