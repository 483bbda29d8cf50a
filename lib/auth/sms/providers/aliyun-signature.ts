import { createHmac } from 'node:crypto'

/**
 * Aliyun's RPC request signature (SignatureMethod HMAC-SHA1, SignatureVersion 1.0), as
 * its "签名机制" documentation describes it: the parameters (without Signature) sorted
 * by name, names and values percent-encoded per RFC 3986, joined with = and &; the
 * string to sign is METHOD & %2F & that query encoded once more; the key is the
 * AccessKey secret followed by '&'.
 */
export function aliyunPercentEncode(value: string): string {
  // encodeURIComponent leaves !'()* alone; RFC 3986 (and Aliyun) encode them.
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.entries(params)
    .filter(([name]) => name !== 'Signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${aliyunPercentEncode(name)}=${aliyunPercentEncode(value)}`)
    .join('&')
}

export function aliyunStringToSign(method: 'GET' | 'POST', params: Record<string, string>): string {
  return `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(aliyunCanonicalQuery(params))}`
}

export function aliyunSignature(accessKeySecret: string, method: 'GET' | 'POST', params: Record<string, string>): string {
  return createHmac('sha1', `${accessKeySecret}&`).update(aliyunStringToSign(method, params), 'utf8').digest('base64')
}
