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

/**
 * The address a rate limit counts by: an IPv4 address itself (an IPv4-mapped IPv6 one too),
 * an IPv6 address by its /64. One subscriber, one home or one server is given a whole /64
 * and may use any address in it, so counting single IPv6 addresses would give one client
 * 2^64 allowances.
 */
export function limitAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip
  const groups = ipv6Groups(ip.split('%')[0]!)
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address ('::' expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(ip: string): number[] {
  const parse = (part: string) =>
    part
      ? part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)]
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number]
          return [(a << 8) | b, (c << 8) | d]
        })
      : []
  const [head = '', tail] = ip.split('::')
  const start = parse(head)
  if (tail === undefined) return start
  const end = parse(tail)
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end]
}
