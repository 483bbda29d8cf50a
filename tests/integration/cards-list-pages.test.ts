// The console's card list is one statement: the total, then the page read from whichever end
// of the index is nearer (pages past the middle oldest first from the far end). Every page of
// every filter, walked to one past the end, must be the plain newest-first read of the same
// rows, cut by OFFSET and LIMIT, with the same total; and the rows come read as Prisma reads
// them (times in UTC).
import { beforeAll, describe, expect, it } from 'vitest'
import * as cardsRoute from '@/app/api/admin/cards/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { freshKeys, importKeys, settleCards } from '../helpers/cards-fixtures'

let admin: Awaited<ReturnType<typeof createUser>>
let batchId: number
let otherBatchId: number

beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
  batchId = (await importKeys(admin, freshKeys(45, 'PG'))).batchId
  otherBatchId = (await importKeys(admin, freshKeys(3, 'PO'))).batchId
  await settleCards()
  // Some of the batch disabled, so a status filter keeps a part of it.
  const some = await db().card.findMany({ where: { batchId }, orderBy: { id: 'asc' }, take: 9, select: { id: true } })
  await db().card.updateMany({ where: { id: { in: some.map((c) => c.id) } }, data: { status: 'FAIL', failReason: '测试停用' } })
})

type Query = { status?: 'SUCCESS' | 'FAIL'; batchId?: number; keyword?: string }

async function everyPage(query: Query, pageSize: number) {
  const ids: number[] = []
  const totals = new Set<number>()
  for (let page = 1; ; page++) {
    const res = await callRoute(cardsRoute.GET, { token: admin.token, query: { ...query, page, pageSize } })
    expect(res.status).toBe(200)
    totals.add(res.body.data.total)
    const list = res.body.data.list as { id: number }[]
    if (list.length === 0) break
    expect(list.length).toBeLessThanOrEqual(pageSize)
    ids.push(...list.map((c) => c.id))
  }
  return { ids, totals: [...totals] }
}

async function plainRead(query: Query) {
  const rows = await db().card.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.batchId ? { batchId: query.batchId } : {}),
      ...(query.keyword ? { cardNo: { contains: query.keyword.toUpperCase() } } : {}),
    },
    orderBy: { id: 'desc' },
    select: { id: true },
  })
  return rows.map((r) => r.id)
}

describe('GET /api/admin/cards pages', () => {
  it('walk every row once, newest first, from either end, under every filter and page size', async () => {
    const firstOfBatch = await db().card.findFirstOrThrow({ where: { batchId }, orderBy: { id: 'desc' }, select: { cardNo: true } })
    const queries: Query[] = [
      {},
      { batchId },
      { batchId, status: 'SUCCESS' },
      { batchId, status: 'FAIL' },
      { batchId: otherBatchId },
      { status: 'FAIL' },
      { keyword: firstOfBatch.cardNo.toLowerCase() },
      { keyword: 'NO-SUCH-CARD' },
    ]
    for (const query of queries) {
      const expected = await plainRead(query)
      for (const pageSize of [20, 7, 1, 100]) {
        const { ids, totals } = await everyPage(query, pageSize)
        expect({ query, pageSize, ids }).toEqual({ query, pageSize, ids: expected })
        expect({ query, pageSize, totals }).toEqual({ query, pageSize, totals: [expected.length] })
      }
    }
  })

  it('gives a page past the end empty, with the total', async () => {
    const res = await callRoute(cardsRoute.GET, { token: admin.token, query: { batchId, page: 99, pageSize: 20 } })
    expect(res.body.data).toEqual({ list: [], total: 45 })
  })

  it('reads the rows as the model does: times in UTC, the batch and the masked key', async () => {
    const res = await callRoute(cardsRoute.GET, { token: admin.token, query: { batchId, page: 3, pageSize: 20 } })
    const list = res.body.data.list as { id: number; createdAt: string; status: string; batch: { id: number }; cardNo: string }[]
    expect(list).toHaveLength(5)
    const stored = await db().card.findMany({ where: { id: { in: list.map((c) => c.id) } }, orderBy: { id: 'desc' } })
    expect(list.map((c) => [c.id, c.createdAt, c.status, c.batch.id, c.cardNo])).toEqual(
      stored.map((c) => [c.id, c.createdAt.toISOString(), c.status, batchId, c.cardNo]),
    )
  })
})
