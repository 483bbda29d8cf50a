import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardedAgents } from '@/lib/net/guarded-agents'
import type { Resolver } from '@/lib/net/metadata-address'

// The agents the S3 client connects through: each connection's host is resolved, checked
// and pinned, so a bucket host whose DNS answers a metadata address is never reached.
let server: http.Server
let port: number
const answers = new Map<string, string[]>()
const resolver: Resolver = async (host) => (answers.get(host) ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('ok'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function get(host: string): Promise<string> {
  const { httpAgent } = guardedAgents(resolver)
  return new Promise((resolve, reject) => {
    http
      .get({ host, port, path: '/', agent: httpAgent }, (res) => {
        let body = ''
        res.on('data', (c) => (body += c))
        res.on('end', () => resolve(body))
      })
      .on('error', reject)
  })
}

describe('guardedAgents', () => {
  it('connects to the checked address of a host', async () => {
    answers.set('bucket.storage.test', ['127.0.0.1'])
    expect(await get('bucket.storage.test')).toBe('ok')
  })

  it.each([['169.254.169.254'], ['100.100.100.200'], ['fd00:ec2::254']])('refuses a host whose DNS answer includes %s', async (address) => {
    answers.set('evil.storage.test', ['127.0.0.1', address])
    await expect(get('evil.storage.test')).rejects.toThrow(/元数据地址/)
  })
})
