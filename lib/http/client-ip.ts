import { BlockList, isIP } from 'node:net'
import { env, type TEnv } from '@/lib/env'

/**
 * The caller's address, for rate limits and the audit log: the TCP peer address that
 * scripts/next-server.mjs writes into X-Client-IP (overwriting anything a client sent), or
 * behind a declared reverse proxy (TRUST_PROXY) the address the proxy saw.
 */
export function clientIp(headers: Headers): string {
  const { TRUST_PROXY, TRUST_PROXY_HOPS, TRUST_PROXY_FROM } = env()
  return clientIpOf(headers, TRUST_PROXY ? TRUST_PROXY_HOPS : 0, proxyNetworks(TRUST_PROXY_FROM))
}

/**
 * Where the site's own proxy may connect from by default: loopback and private networks
 * (a proxy on the same machine, in the same Docker or cloud network; 100.64.0.0/10 is where
 * Alibaba Cloud's load balancers connect from). A request from anywhere else reached the
 * site around the proxy, and its forwarded headers are the client's own words.
 */
const PRIVATE_NETWORKS = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '::1/128', 'fc00::/7', 'fe80::/10']

const networkLists = new Map<string, BlockList>()

/** TRUST_PROXY_FROM (addresses or CIDRs, comma-separated, checked by lib/env.ts), or the private networks. */
export function proxyNetworks(list: string | undefined): BlockList {
  const key = list?.trim() ?? ''
  let networks = networkLists.get(key)
  if (!networks) {
    networks = new BlockList()
    const entries = key ? key.split(',').map((entry) => entry.trim()) : PRIVATE_NETWORKS
    for (const entry of entries) {
      const [address = '', bits] = entry.split('/')
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
      if (bits === undefined) networks.addAddress(address, type)
      else networks.addSubnet(address, Number(bits), type)
    }
    networkLists.set(key, networks)
  }
  return networks
}

let warned = false

/**
 * Said once per process: forwarded headers from a peer outside TRUST_PROXY_FROM. Either a
 * client went around the proxy, or the proxy connects from an address that list (or, by
 * default, the private networks) leaves out, and every client now counts as the proxy.
 */
function warnUntrustedProxy(peer: string, headers: Headers): void {
  const forwardedFor = headers.get('x-forwarded-for')?.trim()
  // Next.js fills a missing X-Forwarded-For with the peer itself: that is no proxy's.
  const forwarded = (forwardedFor !== undefined && forwardedFor !== peer) || headers.has('x-real-ip')
  if (warned || !forwarded) return
  warned = true
  console.warn(
    `[client-ip] forwarded headers from ${peer}, which is not where the proxy connects from (TRUST_PROXY_FROM): they are ignored and the peer is the client address`,
  )
}

/**
 * Whether the request came through the site's declared proxy: TRUST_PROXY on, and the peer is
 * where that proxy connects from. Only then are its X-Forwarded-* headers the proxy's word.
 */
export function viaTrustedProxy(headers: Headers, settings: Pick<TEnv, 'TRUST_PROXY' | 'TRUST_PROXY_FROM'> = env()): boolean {
  const peer = headers.get('x-client-ip')?.trim() ?? ''
  return settings.TRUST_PROXY && connectsFrom(peer, proxyNetworks(settings.TRUST_PROXY_FROM))
}

function connectsFrom(peer: string, networks: BlockList): boolean {
  // Node reports an IPv4 client of a dual-stack socket as ::ffff:a.b.c.d.
  const address = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  const version = isIP(address)
  return version !== 0 && networks.check(address, version === 6 ? 'ipv6' : 'ipv4')
}

/**
 * Each proxy appends the address it saw to X-Forwarded-For, so with `hops` proxies of our
 * own in front (1: nginx; 2: a CDN, then nginx) the client is the hops-th entry from the
 * right: entries left of it are whatever the client sent. X-Real-IP only when no proxy
 * wrote X-Forwarded-For (a proxy that sets just X-Real-IP overwrites it; some pass a
 * client's own through). Next.js fills a missing X-Forwarded-For with the peer's address,
 * which is no proxy's word. Anything that is not an IP address is ignored, and so are the
 * headers of a request whose peer is not where the proxy connects from (`proxies`).
 */
export function clientIpOf(headers: Headers, hops: number, proxies = proxyNetworks(undefined)): string {
  const peer = headers.get('x-client-ip')?.trim() || 'unknown'
  if (hops > 0 && !connectsFrom(peer, proxies)) warnUntrustedProxy(peer, headers)
  else if (hops > 0) {
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
