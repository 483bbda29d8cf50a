import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { nodeEnv } from '@/lib/env'
import { allowedAddresses, isMetadataAddress, MetadataAddressError } from './metadata-address'

/**
 * Fetches a URL that came from a user or from a backend's answer without letting it
 * reach our own network (SSRF, docs/PROTOCOLS.md §8.3): the host is resolved once, every
 * address is checked against private, loopback, link-local and cloud-metadata ranges,
 * and the connection goes to that checked address (no DNS rebinding). Redirects are
 * followed by hand and checked again; size and time are capped.
 */
const blocked = new net.BlockList()
for (const [range, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(range, bits, 'ipv4')
for (const [range, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(range, bits, 'ipv6')

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnsafeUrlError'
  }
}

/** True for addresses a fetch on someone else's behalf must never reach. */
export function isBlockedAddress(address: string): boolean {
  if (isMetadataAddress(address)) return true
  if (net.isIPv4(address)) return blocked.check(address, 'ipv4')
  if (!net.isIPv6(address)) return true
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4')
  return blocked.check(address, 'ipv6')
}

export type SafeFetchOptions = {
  /** Hosts trusted as they are (the operator's own backend): private addresses allowed, link-local and metadata ones still refused. */
  trustedHosts?: string[]
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
  signal?: AbortSignal
  /** Allow plain http (only ever for trusted hosts by default). */
  allowHttp?: boolean
}

type Address = { address: string; family: number }

/** How host names become addresses and which addresses are off limits. */
export type AddressPolicy = {
  resolve(hostname: string): Promise<Address[]>
  isBlocked(address: string): boolean
}

const systemPolicy: AddressPolicy = { resolve: (hostname) => lookup(hostname, { all: true }), isBlocked: isBlockedAddress }

/**
 * A fetcher with its own resolver (e.g. a fixed answer in tests). Loosening the address
 * check is only accepted under NODE_ENV=test, so a test can reach a loopback server
 * through the pinned-address path while production keeps the full block list.
 */
export function createSafeFetcher(policy: Partial<AddressPolicy>) {
  if (policy.isBlocked && policy.isBlocked !== isBlockedAddress && nodeEnv() !== 'test') throw new Error('the SSRF address check can only be loosened in tests')
  const full: AddressPolicy = { ...systemPolicy, ...policy }
  return (rawUrl: string, options: SafeFetchOptions = {}) => fetchWithPolicy(full, rawUrl, options)
}

export function safeFetchBytes(rawUrl: string, options: SafeFetchOptions = {}): Promise<{ bytes: Buffer; contentType: string | null }> {
  return fetchWithPolicy(systemPolicy, rawUrl, options)
}

async function fetchWithPolicy(policy: AddressPolicy, rawUrl: string, options: SafeFetchOptions): Promise<{ bytes: Buffer; contentType: string | null }> {
  const { maxBytes = 50 * 1024 * 1024, timeoutMs = 20_000, maxRedirects = 3 } = options
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs)
  let url = new URL(rawUrl)
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const trusted = options.trustedHosts?.includes(url.host) ?? false
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (trusted || options.allowHttp))) throw new UnsafeUrlError(`只允许 https 地址：${url.origin}`)
    const addresses = trusted ? await trustedAddresses(policy, url.hostname) : await checkedAddresses(policy, url.hostname)
    const answer = await requestOnce(url, addresses, maxBytes, signal)
    if (answer.redirect) {
      url = new URL(answer.redirect, url)
      continue
    }
    return { bytes: answer.bytes!, contentType: answer.contentType }
  }
  throw new UnsafeUrlError('重定向次数过多')
}

/** Every address the host resolves to, refused as a whole if any one is off limits (metadata addresses even in tests). */
async function checkedAddresses(policy: AddressPolicy, hostname: string): Promise<Address[]> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIPv6(host) ? 6 : 4 }] : await policy.resolve(host)
  if (addresses.length === 0 || addresses.some((a) => policy.isBlocked(a.address) || isMetadataAddress(a.address)))
    throw new UnsafeUrlError(`拒绝访问内网或保留地址：${hostname}`)
  return addresses
}

async function trustedAddresses(policy: AddressPolicy, hostname: string): Promise<Address[]> {
  try {
    return await allowedAddresses(hostname, policy.resolve)
  } catch (error) {
    if (error instanceof MetadataAddressError) throw new UnsafeUrlError(error.message)
    throw error
  }
}

type LookupCallback = (error: Error | null, address: string | Address[], family?: number) => void

/**
 * A `lookup` for http.request that answers only with the checked addresses. Node calls it
 * with `{all: true}` when autoSelectFamily is on (the default since Node 20) and then
 * wants the whole list; otherwise one address and its family.
 */
export function pinnedLookup(addresses: Address[]) {
  return (_hostname: string, options: { all?: boolean; family?: number | string } | number | undefined, callback: LookupCallback) => {
    const family = typeof options === 'object' ? Number(options.family ?? 0) : Number(options ?? 0)
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses
    const [first] = usable
    if (!first) return callback(Object.assign(new Error(`no IPv${family} address`), { code: 'ENOTFOUND' }), '', family)
    if (typeof options === 'object' && options.all) return callback(null, usable)
    callback(null, first.address, first.family)
  }
}

function requestOnce(
  url: URL,
  pinned: Address[],
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ redirect?: string; bytes?: Buffer; contentType: string | null }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const req = client.request(
      url,
      {
        method: 'GET',
        signal,
        headers: { 'user-agent': 'aiimg/1.0' },
        lookup: pinnedLookup(pinned) as unknown as net.LookupFunction,
      },
      (res) => {
        const status = res.statusCode ?? 0
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume()
          return resolve({ redirect: res.headers.location, contentType: null })
        }
        if (status < 200 || status >= 300) {
          res.resume()
          return reject(new Error(`HTTP ${status} from ${url.origin}`))
        }
        const declared = Number(res.headers['content-length'] ?? 0)
        if (declared > maxBytes) {
          res.destroy()
          return reject(new Error(`文件过大（${declared} 字节）`))
        }
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) res.destroy(new Error(`文件过大（超过 ${maxBytes} 字节）`))
          else chunks.push(chunk)
        })
        res.on('error', reject)
        res.on('end', () => resolve({ bytes: Buffer.concat(chunks), contentType: res.headers['content-type'] ?? null }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}
