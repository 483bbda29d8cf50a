import { lookup } from 'node:dns/promises'
import net from 'node:net'

/**
 * Addresses no outbound call may ever reach, whoever configured it: link-local ranges and
 * the cloud metadata services (AWS, GCP, Azure, Tencent at 169.254.x.x, Aliyun at
 * 100.100.100.200, AWS IPv6 at fd00:ec2::254), in any IPv6 spelling that carries one of
 * those IPv4 addresses. Loopback and private ranges stay allowed here: an operator's
 * backend on the LAN is normal (the SSRF list for user-given URLs is in safe-fetch.ts).
 */
const v4 = new net.BlockList()
v4.addSubnet('169.254.0.0', 16, 'ipv4')
v4.addAddress('100.100.100.200', 'ipv4')
const AWS_V6 = ipv6Groups('fd00:ec2::254')

export type ResolvedAddress = { address: string; family: number }
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true })

export class MetadataAddressError extends Error {
  constructor(readonly host: string) {
    super(`拒绝连接链路本地或云服务器元数据地址（${host}）`)
    this.name = 'MetadataAddressError'
  }
}

export function isMetadataAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (net.isIPv4(ip)) return v4.check(ip, 'ipv4')
  if (!net.isIPv6(ip)) return false
  const groups = ipv6Groups(ip)
  if (((groups[0] ?? 0) & 0xffc0) === 0xfe80) return true // fe80::/10
  if (groups.every((g, i) => g === AWS_V6[i])) return true
  const embedded = embeddedIpv4(groups)
  return embedded !== null && v4.check(embedded, 'ipv4')
}

/**
 * The addresses a host name stands for (an IP literal stands for itself), refused as a
 * whole when any one of them is off limits. Connect only to what this returns (pinned).
 */
export async function allowedAddresses(hostname: string, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await resolve(host)
  if (addresses.some((a) => isMetadataAddress(a.address))) throw new MetadataAddressError(hostname)
  return addresses
}

/** Eight 16-bit groups of a valid IPv6 address (a trailing dotted quad included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase()
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (quad) {
    const [a = 0, b = 0, c = 0, d = 0] = quad.slice(1).map(Number)
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)))
  const gap = text.indexOf('::')
  if (gap < 0) return parse(text)
  const head = parse(text.slice(0, gap))
  const tail = parse(text.slice(gap + 2))
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}

/** The IPv4 address inside an IPv4-mapped, -compatible, -translated or NAT64 (64:ff9b::/96) address. */
function embeddedIpv4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  const carries =
    (zero(0, 5) && (g[5] === 0xffff || g[5] === 0)) || // ::ffff:a.b.c.d, ::a.b.c.d
    (zero(0, 4) && g[4] === 0xffff && g[5] === 0) || // ::ffff:0:a.b.c.d
    (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) // 64:ff9b::a.b.c.d
  const [hi = 0, lo = 0] = g.slice(6)
  return carries ? `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}` : null
}
