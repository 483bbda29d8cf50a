import { isIP } from 'node:net'
import { env } from '@/lib/env'

/**
 * The caller's address, for rate limits and the audit log: the TCP peer address that
 * scripts/next-server.mjs writes into X-Client-IP (overwriting anything a client sent), or
 * behind a declared reverse proxy (TRUST_PROXY) the address the proxy saw.
 */
export function clientIp(headers: Headers): string {
  const { TRUST_PROXY, TRUST_PROXY_HOPS } = env()
  return clientIpOf(headers, TRUST_PROXY ? TRUST_PROXY_HOPS : 0)
}

/**
 * Each proxy appends the address it saw to X-Forwarded-For, so with `hops` proxies of our
 * own in front (1: nginx; 2: a CDN, then nginx) the client is the hops-th entry from the
 * right: entries left of it are whatever the client sent. X-Real-IP only when no proxy
 * wrote X-Forwarded-For (a proxy that sets just X-Real-IP overwrites it; some pass a
 * client's own through). Next.js fills a missing X-Forwarded-For with the peer's address,
 * which is no proxy's word. Anything that is not an IP address is ignored.
 */
export function clientIpOf(headers: Headers, hops: number): string {
  const peer = headers.get('x-client-ip')?.trim() || 'unknown'
  if (hops > 0) {
    const entries =
      headers
        .get('x-forwarded-for')
        ?.split(',')
        .map((entry) => entry.trim()) ?? []
    const byProxy = entries.length > 0 && !(entries.length === 1 && entries[0] === peer)
    const seen = byProxy ? entries.at(-hops) : headers.get('x-real-ip')?.trim()
    if (seen && isIP(seen)) return seen
  }
  return peer
}
