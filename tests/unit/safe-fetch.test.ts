import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createSafeFetcher, isBlockedAddress, pinnedLookup, safeFetchBytes, UnsafeUrlError } from '@/lib/net/safe-fetch'

describe('isBlockedAddress (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '100.64.0.1',
    '0.0.0.0',
    '198.18.0.1',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
    'fd00:ec2::254',
    '::ffff:a9fe:a9fe',
    '::169.254.169.254',
    '::ffff:0:169.254.169.254',
    '::ffff:0:6464:64c8',
  ])('refuses %s', (address) => expect(isBlockedAddress(address)).toBe(true))

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  )
})

describe('safeFetchBytes', () => {
  it('refuses plain http, loopback and private hosts, but fetches from a trusted host', async () => {
    const server = http.createServer((_req, res) => res.end('ok'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      await expect(safeFetchBytes(`http://example.com/a.png`)).rejects.toBeInstanceOf(UnsafeUrlError)
      await expect(safeFetchBytes(`https://127.0.0.1:${port}/a.png`)).rejects.toThrow(/内网或保留地址/)
      await expect(safeFetchBytes(`https://[::1]:${port}/a.png`)).rejects.toThrow(/内网或保留地址/)
      await expect(safeFetchBytes(`https://169.254.169.254/latest/meta-data/`)).rejects.toThrow(/内网或保留地址/)
      const trusted = await safeFetchBytes(`http://127.0.0.1:${port}/a.png`, { trustedHosts: [`127.0.0.1:${port}`] })
      expect(trusted.bytes.toString()).toBe('ok')
    } finally {
      server.close()
    }
  })

  it('checks every redirect hop again', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'https://10.0.0.1/secret' })
      res.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      await expect(safeFetchBytes(`http://127.0.0.1:${port}/`, { trustedHosts: [`127.0.0.1:${port}`] })).rejects.toThrow(/内网或保留地址/)
    } finally {
      server.close()
    }
  })

  it('stops at the size limit', async () => {
    const server = http.createServer((_req, res) => res.end(Buffer.alloc(5000)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      await expect(safeFetchBytes(`http://127.0.0.1:${port}/`, { trustedHosts: [`127.0.0.1:${port}`], maxBytes: 1000 })).rejects.toThrow(/文件过大/)
    } finally {
      server.close()
    }
  })
})

async function listen(handler: http.RequestListener): Promise<{ port: number; hosts: string[]; close: () => void }> {
  const hosts: string[] = []
  const server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '')
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, hosts, close: () => server.close() }
}

/**
 * The pinned-address path (not trusted hosts): a name resolved by a fixed resolver, with
 * only that test server's loopback address let through the check.
 */
const fetchVia = (answers: Record<string, string[]>) =>
  createSafeFetcher({
    resolve: async (host) => (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    isBlocked: (address) => address !== '127.0.0.1' && isBlockedAddress(address),
  })

describe('safeFetchBytes through the pinned address', () => {
  it('connects to the checked address under the original host name (Node asks lookup for {all: true})', async () => {
    const server = await listen((_req, res) => res.end('pinned ok'))
    try {
      const fetchPinned = fetchVia({ 'images.example.test': ['127.0.0.1'] })
      const answer = await fetchPinned(`http://images.example.test:${server.port}/a.png`, { allowHttp: true })
      expect(answer.bytes.toString()).toBe('pinned ok')
      expect(server.hosts).toEqual([`images.example.test:${server.port}`])
    } finally {
      server.close()
    }
  })

  it('refuses a name resolving to a private or metadata address, even beside a good one, and rechecks redirects', async () => {
    const server = await listen((_req, res) => {
      res.writeHead(302, { location: 'http://rebind.example.test/next' })
      res.end()
    })
    try {
      const fetchPinned = fetchVia({
        'rebind.example.test': ['10.0.0.7'],
        'mixed.example.test': ['127.0.0.1', '169.254.169.254'],
        'aliyun.example.test': ['100.100.100.200'],
        'v6.example.test': ['fd00::1'],
        'start.example.test': ['127.0.0.1'],
      })
      for (const host of ['rebind', 'mixed', 'aliyun', 'v6', 'nowhere']) {
        await expect(fetchPinned(`http://${host}.example.test:${server.port}/`, { allowHttp: true })).rejects.toThrow(/内网或保留地址/)
      }
      await expect(fetchPinned(`http://start.example.test:${server.port}/`, { allowHttp: true })).rejects.toThrow(/rebind\.example\.test/)
      expect(server.hosts).toHaveLength(1)
      await expect(fetchPinned(`http://start.example.test:${server.port}/`)).rejects.toThrow(/只允许 https/)
    } finally {
      server.close()
    }
  })

  it('the lookup answers both calling conventions of node:net', () => {
    const lookup = pinnedLookup([
      { address: '203.0.113.5', family: 4 },
      { address: '2001:db8::5', family: 6 },
    ])
    const answers: unknown[][] = []
    lookup('x', { all: true }, (...args) => answers.push(args))
    lookup('x', { family: 6 }, (...args) => answers.push(args))
    lookup('x', 4, (...args) => answers.push(args))
    expect(answers).toEqual([
      [
        null,
        [
          { address: '203.0.113.5', family: 4 },
          { address: '2001:db8::5', family: 6 },
        ],
      ],
      [null, '2001:db8::5', 6],
      [null, '203.0.113.5', 4],
    ])
  })

  it('the address check cannot be loosened outside tests', () => {
    const saved = process.env.NODE_ENV
    try {
      ;(process.env as Record<string, string>).NODE_ENV = 'production'
      expect(() => createSafeFetcher({ isBlocked: () => false })).toThrow(/only be loosened in tests/)
    } finally {
      ;(process.env as Record<string, string>).NODE_ENV = saved!
    }
  })
})
