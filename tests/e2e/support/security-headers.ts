// The headers every HTML page of the site carries (next.config.mjs and proxy.ts set them).
import { expect } from '@playwright/test'
import { at } from '../../helpers/present'

/** Checks a page's response headers: the nonce CSP and the static ones. Answers the CSP's nonce. */
export function expectPageSecurityHeaders(headers: Record<string, string>, route: string): string {
  const csp = headers['content-security-policy'] ?? ''
  expect(csp, route).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'(;|$)/)
  expect(csp, route).toContain("object-src 'none'")
  expect(csp, route).toContain("base-uri 'self'")
  expect(csp, route).not.toContain('unsafe-eval')
  expect(headers['permissions-policy'], route).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/)
  // The site runs on plain http here (PUBLIC_URL http://…, no trusted proxy): no HSTS.
  expect(headers['strict-transport-security'], route).toBeUndefined()
  expect(headers['x-content-type-options'], route).toBe('nosniff')
  expect(headers['referrer-policy'], route).toBe('strict-origin-when-cross-origin')
  expect(headers['x-frame-options'], route).toBe('SAMEORIGIN')
  return at(/'nonce-([^']+)'/.exec(csp)!, 1)
}
