import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isBlockedAddress, safeFetchBytes, UnsafeUrlError } from '@/lib/net/safe-fetch'

describe('isBlockedAddress (SSRF)', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.100.100.200', '100.64.0.1',
    '0.0.0.0', '198.18.0.1', '224.0.0.1', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip',
  ])('refuses %s', (address) => expect(isBlockedAddress(address)).toBe(true))

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => expect(isBlockedAddress(address)).toBe(false))
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
