import { beforeAll, describe, expect, it, vi } from 'vitest'
import { browserLabel } from '@/lib/auth/wechat/browser-label'
import { openDesktopDetails, sealDesktopDetails } from '@/lib/auth/wechat/desktop-details'

describe('browserLabel', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome 124 · Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51', 'Edge 124 · Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'Safari 17 · macOS'],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox 125 · Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c)',
      '微信 8 · iOS',
    ],
    ['curl/8.5.0', '未知浏览器'],
    ['', '未知浏览器'],
  ])('%s → %s', (ua, label) => {
    expect(browserLabel(ua)).toBe(label)
  })
  it('reads nothing when there is no header', () => {
    expect(browserLabel(null)).toBe('未知浏览器')
  })
})

describe('sealed desktop details of a QR ticket', () => {
  beforeAll(() => {
    // The key is derived from AUTH_SECRET; nothing here touches the database.
    vi.stubEnv('AUTH_SECRET', 'unit-test-secret-unit-test-secret-0123456789')
    vi.stubEnv('DATABASE_URL', 'postgresql://unused@127.0.0.1:1/unused')
  })
  const details = { ip: '203.0.113.9', browser: 'Chrome 124 · Windows' }

  it('open for their own ticket only, and are URL-safe', () => {
    const sealed = sealDesktopDetails('ticket-one-aaaaaaaaaaaa', details)
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain('203.0.113.9')
    expect(openDesktopDetails('ticket-one-aaaaaaaaaaaa', sealed)).toEqual(details)
    expect(openDesktopDetails('ticket-two-aaaaaaaaaaaa', sealed)).toBeNull()
  })

  it('refuse altered, truncated, missing or foreign values', () => {
    const sealed = sealDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', details)
    const flipped = sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21)
    expect(openDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', flipped)).toBeNull()
    expect(openDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', sealed.slice(0, 30))).toBeNull()
    expect(openDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', undefined)).toBeNull()
    expect(openDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', 'not base64url!')).toBeNull()
    expect(openDesktopDetails('t1-aaaaaaaaaaaaaaaaaaaa', Buffer.from('["1.2.3.4","x"]').toString('base64url'))).toBeNull()
  })
})
