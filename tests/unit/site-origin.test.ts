// The origin of links that leave the site (OAuth callbacks, the QR login's link): PUBLIC_URL,
// else the proxy's X-Forwarded-Proto/Host when the request came through it, else the request's own.
import { describe, expect, it } from 'vitest'
import { siteOrigin } from '@/lib/http/site-origin'

const request = (peer: string) =>
  new Request('http://127.0.0.1:3000/api/auth/wechat/ticket', {
    headers: { host: '127.0.0.1:3000', 'x-client-ip': peer, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'ai.example.com' },
  })
const behindProxy = { PUBLIC_URL: undefined, TRUST_PROXY: true, TRUST_PROXY_FROM: undefined }

describe('siteOrigin', () => {
  it('is PUBLIC_URL when set, whatever the request says', () => {
    expect(siteOrigin(request('10.0.0.2'), { ...behindProxy, PUBLIC_URL: 'https://img.example.cn/app' })).toBe('https://img.example.cn')
  })
  it("is the proxy's forwarded origin for a request through it", () => {
    expect(siteOrigin(request('10.0.0.2'), behindProxy)).toBe('https://ai.example.com')
    expect(siteOrigin(request('203.0.113.9'), { ...behindProxy, TRUST_PROXY_FROM: '203.0.113.0/24' })).toBe('https://ai.example.com')
  })
  it('is the origin the request came to when it went around the proxy, or no proxy is declared', () => {
    expect(siteOrigin(request('203.0.113.9'), behindProxy)).toBe('http://127.0.0.1:3000')
    expect(siteOrigin(request('10.0.0.2'), { ...behindProxy, TRUST_PROXY: false })).toBe('http://127.0.0.1:3000')
  })
})
