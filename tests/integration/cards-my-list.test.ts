// GET /api/my-cards lists every card the caller holds or has redeemed: no silent cut-off.
import { describe, expect, it } from 'vitest'
import * as myCardsRoute from '@/app/api/my-cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import { db } from '@/lib/db'
import { toMyCard } from '@/lib/cards/card-views'
import { callRoute } from '../helpers/call-route'
import { freshKeys, insertCards } from '../helpers/cards-fixtures'
import { expectOk } from '../helpers/expect-response'
import { quickUser } from '../helpers/ledger-fixtures'
import { at } from '../helpers/present'

describe('GET /api/my-cards', () => {
  it('lists all of a user’s 620 cards (held and redeemed, each once), newest first, and nobody else’s', async () => {
    const [user, stranger] = [await quickUser(), await quickUser()]
    const cards = await insertCards(freshKeys(640, 'MINE'), { status: 'SUCCESS' })
    const held = cards.slice(0, 600)
    await db().card.updateMany({ where: { id: { in: held.map((c) => c.id) } }, data: { holderId: user.id } })
    await db().card.updateMany({ where: { id: { in: cards.slice(600).map((c) => c.id) } }, data: { holderId: stranger.id } })
    // Redeemed: two typed keys of free cards, and one the user holds (held and used: listed once).
    const typed = await insertCards(freshKeys(20, 'TYPED'), { status: 'SUCCESS' })
    for (const card of typed) expectOk(await callRoute(redeemRoute.POST, { token: user.token, body: { cardKey: card.key } }))
    expectOk(await callRoute(redeemRoute.POST, { token: user.token, body: { cardId: at(held, 0).id } }))

    const list = expectOk(await callRoute(myCardsRoute.GET, { token: user.token }))
    const expectedIds = [...held, ...typed].map((c) => c.id).sort((a, b) => b - a)
    expect(list.map((c: { id: number }) => c.id)).toEqual(expectedIds)
    expect(list.filter((c: { usedAt: string | null }) => c.usedAt)).toHaveLength(21)
    expect(expectOk(await callRoute(myCardsRoute.GET, { token: stranger.token }))).toHaveLength(40)
    // Key for key the answer toMyCard makes of the card's columns (as redeeming answers it), a disabled card included.
    await db().card.update({ where: { id: at(held, 1).id }, data: { disabledAt: new Date() } })
    const columns = await db().card.findMany({
      where: { OR: [{ holderId: user.id }, { usedById: user.id }] },
      select: { id: true, cardNo: true, keyMask: true, points: true, createdAt: true, usedAt: true, expiresAt: true, disabledAt: true },
      orderBy: { id: 'desc' },
    })
    const answer = expectOk(await callRoute(myCardsRoute.GET, { token: user.token }))
    expect(JSON.stringify(answer)).toBe(JSON.stringify(columns.map(toMyCard)))
    expect(answer.filter((c: { isDisabled: boolean }) => c.isDisabled)).toHaveLength(1)
  })
})
