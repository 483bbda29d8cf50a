import { env } from '@/lib/env'

/**
 * The caller's address, for rate limits and the audit log. Behind a declared reverse
 * proxy (TRUST_PROXY) it is the proxy's X-Real-IP or first X-Forwarded-For entry;
 * otherwise the TCP peer address that scripts/next-server.mjs writes into X-Client-IP
 * (overwriting anything a client sent, so it cannot be forged).
 */
export function clientIp(headers: Headers): string {
  if (env().TRUST_PROXY) {
    const real = headers.get('x-real-ip')?.trim()
    const first = headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (real || first) return (real || first)!
  }
  return headers.get('x-client-ip')?.trim() || 'unknown'
}
