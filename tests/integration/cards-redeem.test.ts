// Redeeming card keys (POST /api/my-cards/redeem): exactly once under any concurrency, the
// value through the ledger, clear refusals, guessing throttled; cards handed to a user
// (POST /api/admin/cards/{id}/assign, GET /api/my-cards) and stopped (…/disable).
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import * as assignRoute from '@/app/api/admin/cards/[id]/assign/route'
import * as disableRoute from '@/app/api/admin/cards/[id]/disable/route'
import * as importRoute from '@/app/api/admin/cards/batch_import/route'
import * as myCardsRoute from '@/app/api/my-cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import { db } from '@/lib/db'
import { callRoute, type CallResult } from '../helpers/call-route'
import { freshKeys, importKeys, readyCards, settleCards } from '../helpers/cards-fixtures'
import { expectFail, expectOk } from '../helpers/expect-response'
import { expectLedgerInvariants, quickUser, quickUsers, type QuickUser } from '../helpers/ledger-fixtures'
import { at, only } from '../helpers/present'

const NOT_FOUND = '卡密不存在，请检查后重试'
const THROTTLED = /^卡密兑换.*过于频繁，请 \d+ (分钟|秒) 后再试$/

let ipCounter = 0
/** Each caller gets its own address unless a test names one (the per-IP limit is shared). */
const nextIp = () => `172.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

const redeemKey = (user: QuickUser, cardKey: string, ip = nextIp()) => callRoute(redeemRoute.POST, { token: user.token, body: { cardKey }, ip })
const redeemId = (user: QuickUser, cardId: number, ip = nextIp()) => callRoute(redeemRoute.POST, { token: user.token, body: { cardId }, ip })
const assign = (actor: QuickUser, cardId: number, userId: string) =>
  callRoute(assignRoute.POST, { token: actor.token, params: { id: String(cardId) }, body: { userId }, ip: '10.5.5.5' })
const setDisabled = (actor: QuickUser, cardId: number, disabled: unknown) =>
  callRoute(disableRoute.POST, { token: actor.token, params: { id: String(cardId) }, body: { disabled }, ip: '10.5.5.5' })
const myCards = async (user: QuickUser) => expectOk(await callRoute(myCardsRoute.GET, { token: user.token }))
const pointsOf = async (user: { id: string }) => (await db().user.findUniqueOrThrow({ where: { id: user.id } })).points
const cardRow = (id: number) => db().card.findUniqueOrThrow({ where: { id } })
const redeemRows = (cardId: number) => db().ledgerEntry.findMany({ where: { reference: `card:${cardId}:redeem` } })

let admin: QuickUser
beforeAll(async () => {
  admin = await quickUser({ role: 'ADMIN' })
})

describe('1,000 concurrent redemptions of 100 keys by 50 users', () => {
  type Attempt = { user: QuickUser; ip: string; key: string }
  let cards: Awaited<ReturnType<typeof readyCards>>
  let users: QuickUser[]
  let attempts: Attempt[]
  let results: CallResult[]
  let elapsedMs: number
  /** Each attempt with its answer. */
  const answered = () => attempts.map((a, i) => ({ a, r: at(results, i) }))

  beforeAll(async () => {
    cards = [...(await readyCards(admin, freshKeys(50, 'RUSH'), { points: 7 })), ...(await readyCards(admin, freshKeys(50, 'RUSH'), { points: 13 }))]
    users = await quickUsers(50, { points: 3 })
    const userIps = new Map(users.map((u, i) => [u.id, `192.168.${i}.1`]))
    // Every key is tried 10 times, by random users (some of them more than once).
    const keys = cards.flatMap((c) => Array(10).fill(c.key) as string[]).sort(() => Math.random() - 0.5)
    attempts = keys.map((key) => {
      const user = at(users, Math.floor(Math.random() * users.length))
      return { user, ip: userIps.get(user.id)!, key }
    })
    const started = Date.now()
    results = await Promise.all(attempts.map((a) => redeemKey(a.user, a.key, a.ip)))
    elapsedMs = Date.now() - started
  }, 60_000)

  it('exactly 100 succeed; every other attempt is a 409 saying the key was used (a lost race is not throttled)', () => {
    expect(results).toHaveLength(1_000)
    const byStatus = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {})
    expect(byStatus, `took ${elapsedMs} ms`).toEqual({ 200: 100, 409: 900 })
    const messages = new Set(results.filter((r) => r.status === 409).map((r) => r.body.errMessage))
    for (const message of messages) expect(['该卡密已被使用', '你已使用过该卡密']).toContain(message)
    // Each key was won once, and the answer names the card and its points.
    const won = answered().filter(({ r }) => r.status === 200)
    expect(new Set(won.map(({ a }) => a.key)).size).toBe(100)
    for (const { r, a } of won) {
      const card = cards.find((c) => c.key === a.key)!
      expect(r.body.data).toMatchObject({ points: card.points, card: { id: card.id, cardNo: card.cardNo, usedAt: expect.any(String), isDisabled: false } })
      expect(JSON.stringify(r.body)).not.toContain(a.key)
    }
  })

  it('a user who already won a key is told so; others are told it is used', () => {
    const winner = new Map<string, string>()
    for (const { a, r } of answered()) if (r.status === 200) winner.set(a.key, a.user.id)
    for (const { a, r } of answered()) {
      if (r.status !== 409) continue
      const mine = winner.get(a.key) === a.user.id
      expect(r.body.errMessage).toBe(mine ? '你已使用过该卡密' : '该卡密已被使用')
    }
  })

  it('every card has exactly one claimant and used time, matching the winning request', async () => {
    const rows = await db().card.findMany({ where: { id: { in: cards.map((c) => c.id) } } })
    expect(rows.every((c) => c.usedById && c.usedAt)).toBe(true)
    const winners = new Map(answered().flatMap(({ a, r }) => (r.status === 200 ? [[a.key, a.user.id] as const] : [])))
    for (const row of rows) expect(row.usedById).toBe(winners.get(cards.find((c) => c.id === row.id)!.key))
  })

  it('exactly 100 CARD_REDEEM ledger rows, one per card, crediting its points to its claimant', async () => {
    const rows = await db().ledgerEntry.findMany({ where: { kind: 'CARD_REDEEM' } })
    expect(rows).toHaveLength(100)
    const cardsById = new Map((await db().card.findMany({ where: { id: { in: cards.map((c) => c.id) } } })).map((c) => [c.id, c]))
    for (const row of rows) {
      const id = Number(/^card:(\d+):redeem$/.exec(row.reference)![1])
      const card = cardsById.get(id)!
      expect({ userId: row.userId, account: row.account, amount: row.amount, note: row.note }).toEqual({
        userId: card.usedById,
        account: 'POINTS',
        amount: card.points,
        note: '卡密兑换',
      })
    }
  })

  it('for every user: points == opening + the cards they won == SUM(ledger)', async () => {
    const won = await db().card.groupBy({ by: ['usedById'], where: { id: { in: cards.map((c) => c.id) } }, _sum: { points: true } })
    const gained = new Map(won.map((g) => [g.usedById, g._sum.points ?? 0]))
    const fresh = await db().user.findMany({ where: { id: { in: users.map((u) => u.id) } }, select: { id: true, points: true } })
    for (const u of fresh) expect({ id: u.id, points: u.points }).toEqual({ id: u.id, points: 3 + (gained.get(u.id) ?? 0) })
    expect([...gained.values()].reduce((a, b) => a + b, 0)).toBe(50 * 7 + 50 * 13)
    await expectLedgerInvariants()
  })

  it('losing races is not guessing: afterwards every one of the 50 users can still redeem a key', async () => {
    const spare = await readyCards(admin, freshKeys(50, 'AFTER'), { points: 1 })
    const statuses = []
    for (const [i, u] of users.entries()) statuses.push((await redeemKey(u, at(spare, i).key, `192.168.${i}.1`)).status)
    expect(
      statuses.filter((s) => s !== 200),
      `statuses after the storm: ${JSON.stringify(statuses)}`,
    ).toEqual([])
  })
})

describe('one user racing themself', () => {
  it('10 simultaneous redemptions of one key by one user credit it once', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'SELF'), { points: 40 })
    const user = await quickUser()
    const results = await Promise.all(Array.from({ length: 10 }, () => redeemKey(user, card.key, '10.10.10.10')))
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)])
    expect(results.filter((r) => r.status === 409).map((r) => r.body.errMessage)).toEqual(Array(9).fill('你已使用过该卡密'))
    expect(await pointsOf(user)).toBe(40)
    expect(await redeemRows(card.id)).toHaveLength(1)
    await expectLedgerInvariants()
  })
})

describe('refusals', () => {
  let user: QuickUser
  let other: QuickUser
  beforeAll(async () => {
    user = await quickUser({ points: 1 })
    other = await quickUser()
  })

  /** Asserts a refusal changed nothing: the user's points, the card, the ledger. */
  async function expectUnchanged(cardId: number | null, before: Awaited<ReturnType<typeof stateOf>>) {
    expect(await stateOf(cardId)).toEqual(before)
  }
  const stateOf = async (cardId: number | null) => ({
    points: await pointsOf(user),
    card: cardId ? await cardRow(cardId) : null,
    ledger: await db().ledgerEntry.count(),
  })

  it('an unknown key is a 404 and credits nothing', async () => {
    const before = await stateOf(null)
    expectFail(await redeemKey(user, 'NO-SUCH-KEY-123'), 404, NOT_FOUND)
    await expectUnchanged(null, before)
  })

  it('a key used by someone else is a 409', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'TAKEN'))
    expectOk(await redeemKey(other, card.key))
    const before = await stateOf(card.id)
    expectFail(await redeemKey(user, card.key), 409, '该卡密已被使用')
    await expectUnchanged(card.id, before)
  })

  it('a key still being checked is a 409, and redeemable once the check made it ready', async () => {
    const [key] = freshKeys(1, 'PEND')
    const { batchId } = await importKeys(admin, [key], { points: 9 })
    const card = only(await db().card.findMany({ where: { batchId } }))
    const before = await stateOf(card.id)
    expectFail(await redeemKey(user, key), 409, '卡密正在校验中，请稍后再试')
    await expectUnchanged(card.id, before)
    await settleCards()
    expectOk(await redeemKey(user, key))
    expect(await pointsOf(user)).toBe(before.points + 9)
  })

  it('a key that failed the check is a 400 卡密无效', async () => {
    const { batchId } = await importKeys(admin, ['BAD KEY 01'])
    await settleCards()
    const card = only(await db().card.findMany({ where: { batchId } }))
    expect(card.status).toBe('FAIL')
    const before = await stateOf(card.id)
    expectFail(await redeemKey(user, 'BAD KEY 01'), 400, '卡密无效')
    await expectUnchanged(card.id, before)
  })

  it('a key with a ready copy and failed duplicates redeems the ready copy', async () => {
    const [key] = freshKeys(1, 'DUPE')
    const [ready] = await readyCards(admin, [key], { points: 4 })
    await importKeys(admin, [key, key])
    await settleCards()
    const data = expectOk(await redeemKey(user, key))
    expect(data.card.id).toBe(ready.id)
    expect((await cardRow(ready.id)).usedById).toBe(user.id)
  })

  it('a disabled key is a 400, and redeemable again once enabled', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'OFF'), { points: 6 })
    expectOk(await setDisabled(admin, card.id, true))
    const before = await stateOf(card.id)
    expectFail(await redeemKey(user, card.key), 400, '该卡密已停用')
    await expectUnchanged(card.id, before)
    expectOk(await setDisabled(admin, card.id, false))
    expectOk(await redeemKey(user, card.key))
    expect(await pointsOf(user)).toBe(before.points + 6)
  })

  it('an expired key is a 400; a batch cannot be imported already expired', async () => {
    expectFail(
      await callRoute(importRoute.POST, { token: admin.token, body: { cards: freshKeys(1, 'OLD'), expiresAt: new Date(Date.now() - 60_000).toISOString() } }),
      400,
      '过期时间必须晚于现在',
    )
    const [expiredSince] = await readyCards(admin, freshKeys(1, 'OLD'), { expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
    await db().card.update({ where: { id: expiredSince.id }, data: { expiresAt: new Date(Date.now() - 1_000) } })
    for (const card of [expiredSince]) {
      const before = await stateOf(card.id)
      expectFail(await redeemKey(user, card.key), 400, '该卡密已过期')
      await expectUnchanged(card.id, before)
    }
    // Not yet expired: fine.
    const [fresh] = await readyCards(admin, freshKeys(1, 'NEW'), { expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
    expectOk(await redeemKey(user, fresh.key))
  })

  it('refuses bodies that are neither {cardKey} nor {cardId} with a 400', async () => {
    for (const body of [
      {},
      { cardKey: '' },
      { cardKey: '   ' },
      { cardId: 'abc' },
      { cardId: 0 },
      { cardKey: 'ABCD-1234', cardId: 1 },
      { cardKey: 'ABCD-1234', userId: other.id },
    ]) {
      expectFail(await callRoute(redeemRoute.POST, { token: user.token, body, ip: nextIp() }), 400)
    }
    expectFail(await callRoute(redeemRoute.POST, { body: { cardKey: 'ABCD-1234' } }), 401)
  })
})

describe('throttling guesses', () => {
  it('after 10 wrong guesses the 11th attempt is a 429, even with a valid key; another user is unaffected', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'GUESS'), { points: 8 })
    const guesser = await quickUser()
    const bystander = await quickUser()
    for (let i = 0; i < 10; i++) expectFail(await redeemKey(guesser, `WRONG-GUESS-${i}`, '10.20.0.1'), 404, NOT_FOUND)
    expectFail(await redeemKey(guesser, card.key, '10.20.0.1'), 429, THROTTLED)
    expectFail(await redeemKey(guesser, card.key, '10.20.0.2'), 429, THROTTLED) // a new address does not help
    expect((await cardRow(card.id)).usedAt).toBeNull()
    expect(await pointsOf(guesser)).toBe(0)

    expectOk(await redeemKey(bystander, card.key, '10.20.0.3'))
    expect(await pointsOf(bystander)).toBe(8)
  })

  it('redeeming failed keys counts as guessing; used, pending or disabled keys do not', async () => {
    const [used] = await readyCards(admin, freshKeys(1, 'CNT'))
    const owner = await quickUser()
    expectOk(await redeemKey(owner, used.key))
    const user = await quickUser()
    for (let i = 0; i < 15; i++) expectFail(await redeemKey(user, used.key), 409, '该卡密已被使用')
    const [ok] = await readyCards(admin, freshKeys(1, 'CNT'), { points: 2 })
    expectOk(await redeemKey(user, ok.key))

    const { batchId } = await importKeys(admin, ['BAD KEY 02'])
    await settleCards()
    expect((await db().card.findFirstOrThrow({ where: { batchId } })).status).toBe('FAIL')
    const guesser = await quickUser()
    for (let i = 0; i < 10; i++) expectFail(await redeemKey(guesser, 'BAD KEY 02'), 400, '卡密无效')
    expectFail(await redeemKey(guesser, 'BAD KEY 02'), 429, THROTTLED)
  })

  it('30 wrong guesses from one address stop every user of that address, not others', async () => {
    const ip = '10.30.0.1'
    const [card] = await readyCards(admin, freshKeys(1, 'IPLIM'))
    const guessers = await quickUsers(3)
    for (const g of guessers) for (let i = 0; i < 10; i++) expectFail(await redeemKey(g, `IP-WRONG-${i}`, ip), 404, NOT_FOUND)
    const neighbour = await quickUser()
    expectFail(await redeemKey(neighbour, card.key, ip), 429, THROTTLED)
    expectOk(await redeemKey(neighbour, card.key, '10.30.0.2'))
  })

  it('simultaneous attempts that are not guesses never lock a user out', async () => {
    // 20 attempts at once on one valid key: one wins, the others lose the race fairly.
    const [card, next] = await readyCards(admin, freshKeys(2, 'NOLOCK'), { points: 3 })
    const user = await quickUser()
    const results = await Promise.all(Array.from({ length: 20 }, () => redeemKey(user, card.key)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    // Not one wrong guess was made, so the next key must go through.
    const after = await redeemKey(user, next.key)
    expect({ status: after.status, errMessage: after.body.errMessage }).toEqual({ status: 200, errMessage: undefined })
    expect(await pointsOf(user)).toBe(6)
  })

  it('a burst of simultaneous wrong guesses is held to the same limit of 10', async () => {
    const burster = await quickUser()
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => redeemKey(burster, `BURST-WRONG-${i}`, nextIp())))
    const statuses = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {})
    // At most 10 guesses may be looked up per hour; the rest must be refused unseen.
    expect(statuses[404] ?? 0, JSON.stringify(statuses)).toBeLessThanOrEqual(10)
    expect((statuses[404] ?? 0) + (statuses[429] ?? 0)).toBe(40)
  })
})

describe('a burst from one address', () => {
  it('waits for its turn outside the database: no attempt holds a connection waiting for another’s lock', async () => {
    const cards = await readyCards(admin, freshKeys(4, 'TURN'), { points: 2 })
    const users = await quickUsers(10)
    const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await watcher.connect()
    // The most sessions ever seen waiting for an advisory lock (a redemption's turn) while the burst runs.
    let mostWaiting = 0
    let running = true
    const watching = (async () => {
      while (running) {
        const { rows } = await watcher.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        )
        mostWaiting = Math.max(mostWaiting, rows[0]!.n)
      }
    })()
    const results = await Promise.all(users.flatMap((user) => cards.map((card) => redeemKey(user, card.key, '10.77.0.1'))))
    running = false
    await watching
    await watcher.end()
    expect(results.filter((r) => r.status === 200)).toHaveLength(4)
    expect(results.filter((r) => r.status === 409)).toHaveLength(36)
    expect(mostWaiting).toBe(0)
    await expectLedgerInvariants()
  })
})

describe('cards handed to a user', () => {
  let holder: QuickUser
  let stranger: QuickUser
  beforeAll(async () => {
    holder = await quickUser({ name: '持卡人' })
    stranger = await quickUser()
  })

  it('an assigned card shows on the holder’s /my_cards as unused, and only there', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'HELD'), { points: 15 })
    const row = expectOk(await assign(admin, card.id, holder.id))
    expect(row).toMatchObject({
      id: card.id,
      holder: { id: holder.id, name: '持卡人' },
      claimant: null,
      usedAt: null,
      cardKey: `${card.key.slice(0, 3)}******${card.key.slice(-3)}`,
    })
    expect(await db().adminAuditLog.count({ where: { action: 'card.assign', targetId: String(card.id) } })).toBe(1)

    const mine = await myCards(holder)
    expect(mine).toEqual([
      { id: card.id, cardNo: card.cardNo, cardKey: row.cardKey, points: 15, createdAt: expect.any(String), usedAt: null, expiresAt: null, isDisabled: false },
    ])
    expect(JSON.stringify(mine)).not.toContain(card.key)
    expect(await myCards(stranger)).toEqual([])
  })

  it('nobody else can redeem a held card, by typing its key or by its id', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'HELD'))
    expectOk(await assign(admin, card.id, holder.id))
    expectFail(await redeemKey(stranger, card.key), 404, NOT_FOUND)
    expectFail(await redeemId(stranger, card.id), 404, NOT_FOUND)
    expect(await cardRow(card.id)).toMatchObject({ holderId: holder.id, usedAt: null, usedById: null })
    expect(await pointsOf(stranger)).toBe(0)
  })

  it('the holder redeems it by id (or by key), once', async () => {
    const [byId, byKey] = await readyCards(admin, freshKeys(2, 'HELD'), { points: 20 })
    expectOk(await assign(admin, byId.id, holder.id))
    expectOk(await assign(admin, byKey.id, holder.id))
    const before = await pointsOf(holder)

    const data = expectOk(await redeemId(holder, byId.id))
    expect(data).toMatchObject({ points: 20, card: { id: byId.id, usedAt: expect.any(String) } })
    expectFail(await redeemId(holder, byId.id), 409, '你已使用过该卡密')
    expectOk(await redeemKey(holder, byKey.key))
    expect(await pointsOf(holder)).toBe(before + 40)

    const mine = await myCards(holder)
    expect(mine.find((c: { id: number }) => c.id === byId.id).usedAt).toEqual(expect.any(String))
    expect(await cardRow(byId.id)).toMatchObject({ holderId: holder.id, usedById: holder.id })
    await expectLedgerInvariants()
  })

  it('redeeming by id a card nobody holds is a 404: ids are not keys', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'LOOSE'))
    expectFail(await redeemId(stranger, card.id), 404, NOT_FOUND)
    expectFail(await redeemId(stranger, 999_999), 404, NOT_FOUND)
    expect((await cardRow(card.id)).usedAt).toBeNull()
  })

  it('/my_cards lists held and used cards, newest first, and never another user’s', async () => {
    const user = await quickUser()
    const [used, held, elsewhere] = await readyCards(admin, freshKeys(3, 'MINE'))
    expectOk(await redeemKey(user, used.key))
    expectOk(await assign(admin, held.id, user.id))
    expectOk(await assign(admin, elsewhere.id, stranger.id))
    const mine = await myCards(user)
    expect(mine.map((c: { id: number; usedAt: string | null }) => [c.id, c.usedAt === null])).toEqual([
      [held.id, true],
      [used.id, false],
    ])
  })
})

describe('admin assign refusals', () => {
  let someone: QuickUser
  beforeAll(async () => {
    someone = await quickUser()
  })

  it('refuses a used, failed, pending, disabled or already held card with 409, and an unknown user or card with 404, changing nothing', async () => {
    const [used, held, disabled] = await readyCards(admin, freshKeys(3, 'ASG'))
    expectOk(await redeemKey(someone, used.key))
    expectOk(await assign(admin, held.id, someone.id))
    expectOk(await setDisabled(admin, disabled.id, true))
    const failed = await importKeys(admin, ['BAD KEY 03'])
    await settleCards()
    const failedCard = await db().card.findFirstOrThrow({ where: { batchId: failed.batchId } })
    const [ready] = await readyCards(admin, freshKeys(1, 'ASG'))
    const pending = await importKeys(admin, freshKeys(1, 'ASGP')) // left unchecked
    const pendingCard = await db().card.findFirstOrThrow({ where: { batchId: pending.batchId } })
    const target = await quickUser()

    const cardIds = [used.id, held.id, disabled.id, failedCard.id, pendingCard.id, ready.id]
    const before = {
      cards: await db().card.findMany({ where: { id: { in: cardIds } }, orderBy: { id: 'asc' } }),
      audits: await db().adminAuditLog.count({ where: { action: 'card.assign' } }),
    }

    expectFail(await assign(admin, used.id, target.id), 409, '该卡密已被使用')
    expectFail(await assign(admin, held.id, target.id), 409, '该卡密已分配给其他用户')
    expectFail(await assign(admin, disabled.id, target.id), 409, '该卡密已停用')
    expectFail(await assign(admin, failedCard.id, target.id), 409, '只有校验通过的卡密才能分配')
    expectFail(await assign(admin, pendingCard.id, target.id), 409, '只有校验通过的卡密才能分配')
    expectFail(await assign(admin, ready.id, 'no-such-user'), 404, '用户不存在')
    expectFail(await assign(admin, 999_999, target.id), 404, '卡密不存在')
    expectFail(await callRoute(assignRoute.POST, { token: admin.token, params: { id: String(ready.id) }, body: {} }), 400, '请填写用户 ID')

    expect({
      cards: await db().card.findMany({ where: { id: { in: cardIds } }, orderBy: { id: 'asc' } }),
      audits: await db().adminAuditLog.count({ where: { action: 'card.assign' } }),
    }).toEqual(before)
  })

  it('of two admins assigning one card at once to different users, exactly one wins', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'ASGR'))
    const [a, b] = await Promise.all([quickUser(), quickUser()])
    const results = await Promise.all([assign(admin, card.id, a.id), assign(admin, card.id, b.id)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const winner = results[0].status === 200 ? a : b
    expect((await cardRow(card.id)).holderId).toBe(winner.id)
  })
})

describe('POST /api/admin/cards/{id}/disable', () => {
  it('disables and enables an unused card, audited each time', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'DIS'))
    const off = expectOk(await setDisabled(admin, card.id, true))
    expect(off.disabledAt).toEqual(expect.any(String))
    expect((await cardRow(card.id)).disabledAt).not.toBeNull()
    const on = expectOk(await setDisabled(admin, card.id, false))
    expect(on.disabledAt).toBeNull()
    const actions = await db().adminAuditLog.findMany({ where: { targetType: 'Card', targetId: String(card.id) }, orderBy: { id: 'asc' } })
    expect(actions.map((a) => [a.action, a.actorId, a.ip])).toEqual([
      ['card.disable', admin.id, '10.5.5.5'],
      ['card.enable', admin.id, '10.5.5.5'],
    ])
  })

  it('a used card can be neither disabled nor enabled (409); an unknown card is a 404; a bad body a 400', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'DISU'))
    const user = await quickUser()
    expectOk(await redeemKey(user, card.key))
    const before = await cardRow(card.id)
    expectFail(await setDisabled(admin, card.id, true), 409, '已使用的卡密不能停用或启用')
    expectFail(await setDisabled(admin, card.id, false), 409, '已使用的卡密不能停用或启用')
    expect(await cardRow(card.id)).toEqual(before)
    expectFail(await setDisabled(admin, 999_999, true), 404, '卡密不存在')
    expectFail(await setDisabled(admin, card.id, 'yes'), 400, '停用状态的格式不正确')
    expect(await db().adminAuditLog.count({ where: { targetType: 'Card', targetId: String(card.id) } })).toBe(0)
  })

  it('racing a redemption, a disable or an assignment: exactly one of the two wins, every time', async () => {
    const cards = await readyCards(admin, freshKeys(20, 'DUEL'), { points: 5 })
    const redeemer = await quickUser()
    const other = await quickUser()
    const outcomes = await Promise.all(
      cards.map(async (card, i) => {
        const [redeemed, admin2] = await Promise.all([
          redeemKey(redeemer, card.key),
          i % 2 ? setDisabled(admin, card.id, true) : assign(admin, card.id, other.id),
        ])
        return { card, redeemed: redeemed.status, admin: admin2.status, message: admin2.body.errMessage ?? redeemed.body.errMessage }
      }),
    )
    for (const o of outcomes) {
      expect(
        [o.redeemed, o.admin].filter((s) => s === 200),
        JSON.stringify(o),
      ).toHaveLength(1)
      const row = await cardRow(o.card.id)
      if (o.redeemed === 200) expect(row).toMatchObject({ usedById: redeemer.id, disabledAt: null, holderId: null })
      else expect(row.usedAt).toBeNull()
    }
    const won = outcomes.filter((o) => o.redeemed === 200).length
    expect(await pointsOf(redeemer)).toBe(won * 5)
    await expectLedgerInvariants()
  })

  it('a card disabled while held stays held and cannot be redeemed by its holder until enabled', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'DISH'))
    const holder = await quickUser()
    expectOk(await assign(admin, card.id, holder.id))
    expectOk(await setDisabled(admin, card.id, true))
    expect((await myCards(holder))[0]).toMatchObject({ id: card.id, isDisabled: true })
    expectFail(await redeemId(holder, card.id), 400, '该卡密已停用')
    expectOk(await setDisabled(admin, card.id, false))
    expectOk(await redeemId(holder, card.id))
  })
})
