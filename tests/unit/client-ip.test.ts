import { describe, expect, it } from 'vitest'
import { clientIpOf, limitAddress, proxyNetworks, viaTrustedProxy } from '@/lib/http/client-ip'

const headers = (h: Record<string, string>) => new Headers({ 'x-client-ip': '10.9.9.9', ...h })

describe('the client address', () => {
  it('without a trusted proxy: the TCP peer, whatever the headers say', () => {
    expect(clientIpOf(headers({ 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '5.6.7.8' }), 0)).toBe('10.9.9.9')
    expect(clientIpOf(new Headers(), 0)).toBe('unknown')
  })

  it('behind one proxy: the entry it appended, not the ones a client wrote, nor a client X-Real-IP passed through', () => {
    expect(clientIpOf(headers({ 'x-forwarded-for': '6.6.6.6, 7.7.7.7, 203.0.113.5', 'x-real-ip': '6.6.6.6' }), 1)).toBe('203.0.113.5')
    expect(clientIpOf(headers({ 'x-forwarded-for': '2001:db8::1' }), 1)).toBe('2001:db8::1')
    expect(clientIpOf(headers({ 'x-real-ip': '198.51.100.7' }), 1)).toBe('198.51.100.7')
    // A proxy that sets only X-Real-IP: Next.js fills X-Forwarded-For with the peer (the proxy) itself.
    expect(clientIpOf(headers({ 'x-real-ip': '198.51.100.7', 'x-forwarded-for': '10.9.9.9' }), 1)).toBe('198.51.100.7')
  })

  it('behind a CDN and a proxy: the address the CDN saw', () => {
    expect(clientIpOf(headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 192.0.2.10' }), 2)).toBe('203.0.113.5')
  })

  it('a request that reached the site around the proxy (from a public address) is not believed', () => {
    const direct = (h: Record<string, string>) => new Headers({ 'x-client-ip': '198.51.100.20', ...h })
    expect(clientIpOf(direct({ 'x-forwarded-for': '6.6.6.6' }), 1)).toBe('198.51.100.20')
    expect(clientIpOf(direct({ 'x-real-ip': '6.6.6.6' }), 1)).toBe('198.51.100.20')
    // The private networks by default, an IPv4 peer of a dual-stack socket included.
    for (const peer of ['127.0.0.1', '172.17.0.1', '192.168.1.2', '100.100.1.1', '::1', 'fd00::5', '::ffff:172.17.0.1'])
      expect(clientIpOf(new Headers({ 'x-client-ip': peer, 'x-forwarded-for': '203.0.113.5' }), 1), peer).toBe('203.0.113.5')
    // TRUST_PROXY_FROM names the proxies instead.
    const cdn = proxyNetworks('198.51.100.0/24, 2001:db8:1::/48')
    expect(clientIpOf(direct({ 'x-forwarded-for': '203.0.113.5' }), 1, cdn)).toBe('203.0.113.5')
    expect(clientIpOf(new Headers({ 'x-client-ip': '2001:db8:1::7', 'x-forwarded-for': '203.0.113.5' }), 1, cdn)).toBe('203.0.113.5')
    expect(clientIpOf(headers({ 'x-forwarded-for': '203.0.113.5' }), 1, cdn)).toBe('10.9.9.9')
    // An empty or blank list is the default.
    expect(clientIpOf(headers({ 'x-forwarded-for': '203.0.113.5' }), 1, proxyNetworks('  '))).toBe('203.0.113.5')
  })

  it('a value that is not an address, or too few entries, falls back to the peer', () => {
    expect(clientIpOf(headers({ 'x-forwarded-for': 'evil, <script>' }), 1)).toBe('10.9.9.9')
    expect(clientIpOf(headers({ 'x-real-ip': 'not-an-ip' }), 1)).toBe('10.9.9.9')
    expect(clientIpOf(headers({ 'x-forwarded-for': '203.0.113.5' }), 2)).toBe('10.9.9.9')
  })
})

describe('the address a rate limit counts by', () => {
  it('an IPv4 address itself, and one written as IPv4-mapped IPv6', () => {
    expect(limitAddress('203.0.113.5')).toBe('203.0.113.5')
    expect(limitAddress('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(limitAddress('::ffff:cb00:7105')).toBe('203.0.113.5')
    expect(limitAddress('unknown')).toBe('unknown')
  })

  it('an IPv6 address by its /64, however it is written', () => {
    const prefix = '2001:db8:85a3:8d3::/64'
    for (const ip of ['2001:db8:85a3:8d3::1', '2001:0db8:85a3:08d3:1319:8a2e:0370:7344', '2001:DB8:85A3:8D3:ffff::', '2001:db8:85a3:8d3::1%eth0'])
      expect(limitAddress(ip)).toBe(prefix)
    expect(limitAddress('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64')
    expect(limitAddress('::1')).toBe('0:0:0:0::/64')
    expect(limitAddress('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64')
    expect(limitAddress('2001:db8::')).toBe('2001:db8:0:0::/64')
    expect(limitAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64')
  })
})

describe('a request through the declared proxy (whose X-Forwarded-Proto/Host are believed)', () => {
  const from = (peer: string) => new Headers({ 'x-client-ip': peer, 'x-forwarded-host': 'ai.example.com', 'x-forwarded-proto': 'https' })
  it('only with TRUST_PROXY on and a peer where the proxy connects from', () => {
    expect(viaTrustedProxy(from('172.17.0.1'), { TRUST_PROXY: true, TRUST_PROXY_FROM: undefined })).toBe(true)
    expect(viaTrustedProxy(from('172.17.0.1'), { TRUST_PROXY: false, TRUST_PROXY_FROM: undefined })).toBe(false)
    expect(viaTrustedProxy(from('198.51.100.20'), { TRUST_PROXY: true, TRUST_PROXY_FROM: undefined })).toBe(false)
    expect(viaTrustedProxy(from('198.51.100.20'), { TRUST_PROXY: true, TRUST_PROXY_FROM: '198.51.100.0/24' })).toBe(true)
    expect(viaTrustedProxy(new Headers(), { TRUST_PROXY: true, TRUST_PROXY_FROM: undefined })).toBe(false)
  })
})
