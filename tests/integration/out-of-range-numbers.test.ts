// Numbers a client may send that no row can have: an id or cursor past int4, a page far past
// the end. PostgreSQL refuses such a parameter for an int column (22003), which used to answer
// 500. Every route file on disk is called (so a new one is covered by itself), as ADMIN:
// reads with the numbers in the query and every path segment, writes with them in the path
// only (params are checked before anything else runs). None may answer 500.
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import * as ledger from '@/app/api/users/ledger/route'
import * as cardDisable from '@/app/api/admin/cards/[id]/disable/route'
import * as cards from '@/app/api/admin/cards/route'
import * as orders from '@/app/api/orders/route'
import { callRoute, createUser } from '../helpers/call-route'

const BIG = '3000000000'
/** Streams never end by themselves; outside callers' webhooks have their own checks. */
const SKIPPED = /\/(events|notify|callback|health)\b|\/wechat\/|\/stream\b|\/file\b|\/files\//

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : []
  })
}

let admin: Awaited<ReturnType<typeof createUser>>
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN', points: 100 })
})

describe('numbers out of range', () => {
  it('a serial id or cursor past int4 is a 400 naming the field, not a 500', async () => {
    const cases = [
      await callRoute(ledger.GET, { token: admin.token, query: { cursor: BIG } }),
      await callRoute(cardDisable.POST, { token: admin.token, params: { id: BIG }, body: { disabled: true } }),
      await callRoute(cards.GET, { token: admin.token, query: { batchId: BIG } }),
      await callRoute(orders.POST, { token: admin.token, body: { productId: Number(BIG), channel: 'WECHAT', type: 'POINTS' } }),
    ]
    expect(cases.map((c) => c.status)).toEqual([400, 400, 400, 400])
    // The largest int4 itself is a valid id that names nothing.
    const largest = await callRoute(cardDisable.POST, { token: admin.token, params: { id: '2147483647' }, body: { disabled: true } })
    expect([largest.status, largest.body.errMessage]).toEqual([404, '卡密不存在'])
  })

  it('a page far past the end is an empty page with the total', async () => {
    const res = await callRoute(cards.GET, { token: admin.token, query: { page: BIG, pageSize: '100' } })
    expect(res.status, res.body.errMessage).toBe(200)
    expect(res.body.data.list).toEqual([])
  })

  it('no route answers 500 to them', { timeout: 300_000 }, async () => {
    const answered500: string[] = []
    for (const file of routeFiles('app/api').filter((f) => !SKIPPED.test(f.replaceAll(path.sep, '/')))) {
      const handlers = (await import(path.resolve(file))) as Record<string, Parameters<typeof callRoute>[0]>
      const segments = [...file.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!)
      const params = Object.fromEntries(segments.map((name) => [name, BIG]))
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        // A write with no segment to refuse would run (a sign-out, an order): only reads go without one.
        if (!handlers[method] || (method !== 'GET' && segments.length === 0)) continue
        for (const page of [BIG, '90000000000000']) {
          const query: Record<string, string> = method === 'GET' ? { page, pageSize: '100', cursor: BIG, batchId: BIG, id: BIG } : {}
          const res = await callRoute(handlers[method], { token: admin.token, params, query, ...(method === 'GET' ? {} : { body: {} }) })
          if (res.status === 500) answered500.push(`${method} ${file} page=${page}`)
        }
      }
    }
    expect(answered500).toEqual([])
  })
})
