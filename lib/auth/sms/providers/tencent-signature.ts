import { createHash, createHmac } from 'node:crypto'

/**
 * Tencent Cloud API 3.0 request signature (TC3-HMAC-SHA256), as its "签名方法 v3"
 * documentation describes it: a canonical request over the method, path, query, the
 * signed headers and the payload's SHA-256; a string to sign with the timestamp and
 * the credential scope date/service/tc3_request; a key derived from "TC3" + SecretKey
 * through the date, the service and "tc3_request".
 */
export type Tc3Input = {
  secretId: string
  secretKey: string
  service: string
  /** Unix seconds, the X-TC-Timestamp header. */
  timestamp: number
  method: 'GET' | 'POST'
  /** Headers to sign (at least content-type and host); names in any case. */
  headers: Record<string, string>
  payload: string
  query?: string
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()

export function tc3Sign(input: Tc3Input): { authorization: string; signature: string; canonicalRequest: string; stringToSign: string } {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10)
  const entries = Object.entries(input.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().toLowerCase()] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const canonicalHeaders = entries.map(([name, value]) => `${name}:${value}\n`).join('')
  const signedHeaders = entries.map(([name]) => name).join(';')
  const canonicalRequest = [input.method, '/', input.query ?? '', canonicalHeaders, signedHeaders, sha256Hex(input.payload)].join('\n')
  const scope = `${date}/${input.service}/tc3_request`
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request')
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex')
  const authorization = `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
  return { authorization, signature, canonicalRequest, stringToSign }
}
