// The page security headers proxy.ts sends: a nonce CSP (eval only under next dev), images
// from the site, data:/blob:, https and the bucket, Permissions-Policy, and HSTS exactly when
// the site is served over https (PUBLIC_URL, or X-Forwarded-Proto from a trusted proxy's address).
import { describe, expect, it } from 'vitest'
import { HSTS, contentSecurityPolicy, pageSecurityHeaders, servedOverHttps, storedFileOrigins } from '@/lib/http/security-headers'

const plain = {
  PUBLIC_URL: undefined,
  TRUST_PROXY: false,
  TRUST_PROXY_FROM: undefined,
  S3_BUCKET: undefined,
  S3_ENDPOINT: undefined,
  S3_PUBLIC_URL: undefined,
  S3_FORCE_PATH_STYLE: false,
}
const page = { nonce: 'bm9uY2U=', isDev: false, isHttps: false, fileOrigins: [] as string[] }
const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]))

describe('Content-Security-Policy', () => {
  it('runs only nonced scripts and what they load, no eval in production', () => {
    const csp = directives(contentSecurityPolicy(page))
    expect(csp['script-src']).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'"])
    expect(csp['object-src']).toEqual(["'none'"])
    expect(csp['base-uri']).toEqual(["'self'"])
    expect(csp['frame-ancestors']).toEqual(["'self'"])
    expect(csp['default-src']).toEqual(["'self'"])
    expect(csp).not.toHaveProperty('upgrade-insecure-requests')
  })

  it("adds 'unsafe-eval' under next dev only", () => {
    expect(directives(contentSecurityPolicy({ ...page, isDev: true }))['script-src']).toContain("'unsafe-eval'")
  })

  it('allows images from the site, data:, blob:, https and the bucket', () => {
    const csp = directives(contentSecurityPolicy({ ...page, fileOrigins: ['http://minio.local:9000'] }))
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https:', 'http://minio.local:9000'])
  })

  it('upgrades plain-http subresources when served over https', () => {
    expect(directives(contentSecurityPolicy({ ...page, isHttps: true }))).toHaveProperty('upgrade-insecure-requests')
  })
})

describe('headers', () => {
  it('always CSP and Permissions-Policy denying camera, microphone and geolocation; HSTS only over https', () => {
    const http = pageSecurityHeaders(page)
    expect(Object.keys(http).sort()).toEqual(['Content-Security-Policy', 'Permissions-Policy'])
    for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()']) expect(http['Permissions-Policy']).toContain(feature)
    expect(pageSecurityHeaders({ ...page, isHttps: true })['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains')
    expect(HSTS).toBe('max-age=31536000; includeSubDomains')
  })
})

describe('servedOverHttps', () => {
  const xfp = (value: string, peer = '10.0.0.2') => new Headers({ 'x-forwarded-proto': value, 'x-client-ip': peer })
  it('is true for an https PUBLIC_URL, whatever the request says', () => {
    expect(servedOverHttps({ ...plain, PUBLIC_URL: 'https://ai.example.com' }, new Headers())).toBe(true)
  })
  it('believes X-Forwarded-Proto only behind a trusted proxy', () => {
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true }, xfp('https'))).toBe(true)
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true }, xfp('https, http'))).toBe(true)
    expect(servedOverHttps({ ...plain, TRUST_PROXY: false }, xfp('https'))).toBe(false)
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true }, xfp('http'))).toBe(false)
  })
  it('ignores X-Forwarded-Proto from a peer that is not where the proxy connects from', () => {
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true }, xfp('https', '203.0.113.9'))).toBe(false)
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true, TRUST_PROXY_FROM: '203.0.113.9' }, xfp('https', '203.0.113.9'))).toBe(true)
    expect(servedOverHttps({ ...plain, TRUST_PROXY: true, TRUST_PROXY_FROM: '203.0.113.9' }, xfp('https'))).toBe(false)
  })
  it('is false for an http PUBLIC_URL or none', () => {
    expect(servedOverHttps({ ...plain, PUBLIC_URL: 'http://192.168.1.5:3000' }, new Headers())).toBe(false)
    expect(servedOverHttps(plain, new Headers())).toBe(false)
  })
})

describe('storedFileOrigins', () => {
  const s3 = { ...plain, S3_BUCKET: 'pics', S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com' }
  it('is the CDN when S3_PUBLIC_URL is set, else the bucket as the storage builds its URLs, else nothing', () => {
    expect(storedFileOrigins({ ...s3, S3_PUBLIC_URL: 'https://cdn.example.com/images/' })).toEqual(['https://cdn.example.com'])
    expect(storedFileOrigins(s3)).toEqual(['https://pics.oss-cn-hangzhou.aliyuncs.com'])
    expect(storedFileOrigins({ ...s3, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: true })).toEqual(['http://minio:9000'])
    expect(storedFileOrigins(plain)).toEqual([])
  })
})
