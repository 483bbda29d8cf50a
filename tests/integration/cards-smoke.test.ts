import { describe, expect, it } from 'vitest'
import * as importRoute from '@/app/api/admin/cards/batch_import/route'
import * as listRoute from '@/app/api/admin/cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import * as myCardsRoute from '@/app/api/my-cards/route'
import { checkPendingCards } from '@/lib/cards/check-pending-cards'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'

describe('card keys, the short way through', () => {
  it('imports, checks, lists masked, redeems once and credits the ledger', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const user = await createUser()
    const imported = await callRoute(importRoute.POST, {
      token: admin.token,
      body: { cards: ['ABCDEFGH1234', 'abc', 'ABCDEFGH1234', 'ZZZZ-9999-XY'], points: 50 },
    })
    expect(imported.status).toBe(200)
    expect(imported.body.data.count).toBe(4)

    let list = await callRoute(listRoute.GET, { token: admin.token, query: { page: 1, pageSize: 20 } })
    expect(list.body.data.list.every((c: { status: string }) => c.status === 'PENDING')).toBe(true)

    while (await checkPendingCards()) {}
    list = await callRoute(listRoute.GET, { token: admin.token, query: { page: 1, pageSize: 20 } })
    const byKey = list.body.data.list.map((c: any) => [c.cardKey, c.status, c.failReason])
    expect(byKey).toEqual([
      ['ZZZ******-XY', 'SUCCESS', null],
      ['ABC******234', 'FAIL', expect.stringContaining('同批次')],
      ['a******c', 'FAIL', expect.stringContaining('格式不正确')],
      ['ABC******234', 'SUCCESS', null],
    ])
    expect(JSON.stringify(list.body)).not.toContain('ABCDEFGH1234')

    const results = await Promise.all([1, 2, 3].map(() => callRoute(redeemRoute.POST, { token: user.token, body: { cardKey: ' ABCDEFGH1234 ' } })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409).map((r) => r.body.errMessage)).toEqual(['你已使用过该卡密', '你已使用过该卡密'])

    const mine = await callRoute(myCardsRoute.GET, { token: user.token })
    expect(mine.body.data).toHaveLength(1)
    expect(mine.body.data[0]).toMatchObject({ cardKey: 'ABC******234', points: 50, usedAt: expect.any(String) })
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } })
    expect(after.points).toBe(50)
    expect(await db().ledgerEntry.count({ where: { userId: user.id, kind: 'CARD_REDEEM' } })).toBe(1)
  })
})
