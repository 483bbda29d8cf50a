// A fake Aliyun SMS endpoint (dysmsapi, SendSms 2017-05-25): checks the RPC request the
// way Aliyun does — the common parameters, a Timestamp within 15 minutes, a fresh
// SignatureNonce, and the HMAC-SHA1 signature recomputed from the received
// parameters — answers Aliyun's JSON (errors included), and records the codes it sent.
import { createHmac } from 'node:crypto'
import type http from 'node:http'
import { record, sendJson, startServer, type RecordedRequest } from './common'

export type FakeAliyunSmsOptions = { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string }
export type SentSms = { mobile: string; code: string; at: number }
/** ok, or the provider refuses every message (flow control), or is down (HTTP 500). */
export type AliyunBehaviour = 'ok' | 'limited' | 'down'

const REQUIRED = [
  'AccessKeyId',
  'Action',
  'Format',
  'PhoneNumbers',
  'SignName',
  'SignatureMethod',
  'SignatureNonce',
  'SignatureVersion',
  'TemplateCode',
  'Timestamp',
  'Version',
  'Signature',
]

/** RFC 3986 percent-encoding as Aliyun's documentation specifies it. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

function expectedSignature(method: string, params: Map<string, string>, secret: string): string {
  const query = [...params.keys()]
    .filter((k) => k !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${encode(k)}=${encode(params.get(k)!)}`)
    .join('&')
  return createHmac('sha1', `${secret}&`)
    .update(`${method}&${encode('/')}&${encode(query)}`)
    .digest('base64')
}

export async function startFakeAliyunSms(options: FakeAliyunSmsOptions) {
  const calls: RecordedRequest[] = []
  const sent: SentSms[] = []
  const nonces = new Set<string>()
  let behaviour: AliyunBehaviour = 'ok'
  const requestId = () => crypto.randomUUID().toUpperCase()
  const fail = (res: http.ServerResponse, status: number, Code: string, Message: string) =>
    sendJson(res, status, { RequestId: requestId(), Message, Code, HostId: 'dysmsapi.aliyuncs.com' })

  const fake = await startServer((req, res, url, raw) => {
    const isForm = req.method === 'POST' && (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
    const source = isForm ? new URLSearchParams(raw.toString('utf8')) : url.searchParams
    const params = new Map<string, string>()
    for (const [k, v] of source) params.set(k, v)
    record(calls, req, url, Object.fromEntries(params))

    if (req.method === 'GET' && url.pathname === '/__fake/messages')
      return sendJson(
        res,
        200,
        sent.filter((m) => !url.searchParams.get('mobile') || m.mobile === url.searchParams.get('mobile')),
      )
    if (req.method === 'POST' && url.pathname === '/__fake/behaviour') {
      behaviour = JSON.parse(raw.toString('utf8')).behaviour
      return sendJson(res, 200, { ok: true })
    }
    if (behaviour === 'down')
      return sendJson(res, 500, {
        RequestId: requestId(),
        Code: 'ServiceUnavailable',
        Message: 'The request has failed due to a temporary failure of the server.',
      })

    const missing = REQUIRED.find((k) => !params.get(k))
    if (missing) return fail(res, 400, 'MissingParameter', `The input parameter "${missing}" that is mandatory for processing this request is not supplied.`)
    if (params.get('AccessKeyId') !== options.accessKeyId) return fail(res, 404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.')
    if (params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0')
      return fail(res, 400, 'InvalidParameter', 'The specified signature method or version is not supported.')
    const timestamp = params.get('Timestamp')!
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp))
      return fail(res, 400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.')
    if (Math.abs(Date.parse(timestamp) - Date.now()) > 15 * 60 * 1000)
      return fail(res, 400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.')
    const signature = expectedSignature(req.method ?? 'GET', params, options.accessKeySecret)
    if (params.get('Signature') !== signature) {
      return fail(res, 400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.')
    }
    if (nonces.has(params.get('SignatureNonce')!)) return fail(res, 400, 'SignatureNonceUsed', 'Specified signature nonce was used already.')
    nonces.add(params.get('SignatureNonce')!)
    if (params.get('Action') !== 'SendSms' || params.get('Version') !== '2017-05-25')
      return fail(res, 400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.')

    const ok = (extra: object) => sendJson(res, 200, { RequestId: requestId(), ...extra })
    const mobile = params.get('PhoneNumbers')!
    if (!/^1[3-9]\d{9}$/.test(mobile)) return ok({ Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' })
    if (params.get('SignName') !== options.signName) return ok({ Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '该账号下找不到对应签名' })
    if (params.get('TemplateCode') !== options.templateCode) return ok({ Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '该账号下找不到对应模板' })
    let code: unknown
    try {
      code = JSON.parse(params.get('TemplateParam') ?? '').code
    } catch {
      return ok({ Code: 'isv.INVALID_JSON_PARAM', Message: 'JSON参数不合法，只接受字符串值' })
    }
    if (typeof code !== 'string') return ok({ Code: 'isv.SMS_TEST_TEMPLATE_PARAMS_ILLEGAL', Message: '模板变量里包含非法关键字' })
    if (behaviour === 'limited') return ok({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控Permits:1' })
    sent.push({ mobile, code, at: Date.now() })
    ok({ Message: 'OK', Code: 'OK', BizId: `${Date.now()}^0` })
  })

  return {
    url: fake.url,
    calls,
    sent,
    close: fake.close,
    setBehaviour(next: AliyunBehaviour) {
      behaviour = next
    },
    lastCode(mobile: string): string | undefined {
      return sent.filter((m) => m.mobile === mobile).at(-1)?.code
    },
  }
}
