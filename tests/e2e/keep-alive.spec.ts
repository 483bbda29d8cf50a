// An idle keep-alive connection stays open longer than clients keep theirs: a request sent on
// it is answered, never reset because the server closed it at the same moment.
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { E2E_BASE_URL } from './support/constants'

type Answer = { status: number; reusedSocket: boolean }

function get(agent: http.Agent, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, E2E_BASE_URL), { agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }))
    })
    req.on('error', reject)
  })
}

test('a connection idle for longer than a Node client keeps one is still open and answered', async () => {
  test.setTimeout(30_000)
  // A client that holds its idle sockets for 20 s, as nginx's upstream pool does for 60 s.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: 20_000 })
  try {
    expect(await get(agent, '/api/health')).toEqual({ status: 200, reusedSocket: false })
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    expect(await get(agent, '/api/health')).toEqual({ status: 200, reusedSocket: true })
  } finally {
    agent.destroy()
  }
})
