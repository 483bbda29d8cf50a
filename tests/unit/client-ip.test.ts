import { describe, expect, it } from 'vitest'
import { clientIpOf } from '@/lib/http/client-ip'

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

  it('a value that is not an address, or too few entries, falls back to the peer', () => {
    expect(clientIpOf(headers({ 'x-forwarded-for': 'evil, <script>' }), 1)).toBe('10.9.9.9')
    expect(clientIpOf(headers({ 'x-real-ip': 'not-an-ip' }), 1)).toBe('10.9.9.9')
    expect(clientIpOf(headers({ 'x-forwarded-for': '203.0.113.5' }), 2)).toBe('10.9.9.9')
  })
})
