// Card import (POST /api/admin/cards/batch_import), the background check that makes each
// card ready or failed (checkPendingCards), and the admin list (GET /api/admin/cards).
import { beforeAll, describe, expect, it } from 'vitest'
import * as assignRoute from '@/app/api/admin/cards/[id]/assign/route'
import * as disableRoute from '@/app/api/admin/cards/[id]/disable/route'
import * as importRoute from '@/app/api/admin/cards/batch_import/route'
import * as exportRoute from '@/app/api/admin/cards/export/route'
import * as listRoute from '@/app/api/admin/cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { checkPendingCards } from '@/lib/cards/check-pending-cards'
import { db } from '@/lib/db'
import { callRoute } from '../helpers/call-route'
import { cardsWithKey, freshKeys, importKeys, readyCards, settleCards } from '../helpers/cards-fixtures'
import { expectFail, expectOk } from '../helpers/expect-response'
import { quickUser, type QuickUser } from '../helpers/ledger-fixtures'
import { at, only, pair } from '../helpers/present'

const MALFORMED_LENGTH = '格式不正确：卡密需为 4-128 个字符'
const MALFORMED_CHARS = '格式不正确：卡密不能包含空格或不可见字符'
const MALFORMED_FORMULA = '格式不正确：卡密不能以 = + - @ 开头'

const importAs = (actor: { token: string }, body: unknown) => callRoute(importRoute.POST, { token: actor.token, body })
const list = (actor: { token: string }, query: Record<string, string | number>) => callRoute(listRoute.GET, { token: actor.token, query })
const cardsOf = (batchId: number) => db().card.findMany({ where: { batchId }, orderBy: { id: 'asc' } })
const counts = async () => ({ batches: await db().cardBatch.count(), cards: await db().card.count(), audits: await db().adminAuditLog.count() })

let admin: QuickUser
let manager: QuickUser
let user: QuickUser
beforeAll(async () => {
  admin = await quickUser({ role: 'ADMIN' })
  manager = await quickUser({ role: 'MANAGER' })
  user = await quickUser()
})

describe('importing', () => {
  it('stores every key as a PENDING card with a readable, unique card number, encrypted and masked', async () => {
    const keys = ['IMPORT-ONE-0001', 'IMPORT-TWO-0002', 'IMPORT-ONE-0001', 'abc']
    const res = await callRoute(importRoute.POST, { token: admin.token, body: { cards: keys, points: 12, note: '第一批' }, ip: '10.3.3.3' })
    const { batchId, count } = expectOk(res)
    expect(count).toBe(4)

    const cards = await cardsOf(batchId)
    expect(cards.map((c) => c.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING'])
    for (const card of cards) expect(card.cardNo).toMatch(/^C\d{8}$/)
    expect(new Set(cards.map((c) => c.cardNo)).size).toBe(4)
    expect(cards.map((c) => c.keyMask)).toEqual(['IMP******001', 'IMP******002', 'IMP******001', 'a******c'])
    expect(cards.map((c) => c.points)).toEqual([12, 12, 12, 12])
    // The key is stored only sealed: neither the ciphertext nor the lookup hash contains it.
    for (const card of cards) {
      expect(card.cardKeyEnc).not.toContain('IMPORT')
      expect(card.keyHash).not.toContain('IMPORT')
    }
    expect(at(cards, 0).keyHash).toBe(at(cards, 2).keyHash)

    expect(await db().cardBatch.findUniqueOrThrow({ where: { id: batchId } })).toMatchObject({
      note: '第一批',
      points: 12,
      count: 4,
      createdById: admin.id,
      expiresAt: null,
    })
    const audit = await db().adminAuditLog.findFirstOrThrow({ where: { action: 'cards.import', targetId: String(batchId) } })
    expect(audit).toMatchObject({
      actorId: admin.id,
      targetType: 'CardBatch',
      ip: '10.3.3.3',
      after: { count: 4, points: 12, note: '第一批', expiresAt: null },
    })
    expect(JSON.stringify(audit)).not.toContain('IMPORT-ONE')
  })

  it('the check makes each card ready or failed, with the reason', async () => {
    const earlier = await readyCards(admin, ['EARLIER-READY-KEY'])
    const keys = [
      'GOOD-KEY-00001', //          ready
      'GOOD-KEY-00001', //          duplicate inside the batch
      'EARLIER-READY-KEY', //       duplicate of a ready key of an earlier batch
      'abc', //                     3 characters
      'abcd', //                    4 characters: the shortest allowed
      'x'.repeat(128), //           128 characters: the longest allowed
      'INNER SPACE1', //            inner space
      'INNER\tTAB01', //            tab
      'ZERO\u200BWIDTH', //         an invisible character
      '  TRIMMED-KEY-1  ', //       the ends are trimmed ...
      'TRIMMED-KEY-1', //           ... so this is a duplicate of it
      '=SUM(A1)1', //               starts like a spreadsheet formula: = + - @ ...
      '+86-CARD', //
      '-NEG-CARD', //
      '@HOME-CARD', //
      'MID=+-@OK', //               ... anywhere else they are fine
    ]
    const { batchId } = await importKeys(admin, keys)
    await settleCards()
    const cards = await cardsOf(batchId)
    expect(cards.map((c) => [c.status, c.failReason])).toEqual([
      ['SUCCESS', null],
      ['FAIL', `与同批次卡密重复（卡号 ${at(cards, 0).cardNo}）`],
      ['FAIL', `与已有卡密重复（卡号 ${earlier[0].cardNo}）`],
      ['FAIL', MALFORMED_LENGTH],
      ['SUCCESS', null],
      ['SUCCESS', null],
      ['FAIL', MALFORMED_CHARS],
      ['FAIL', MALFORMED_CHARS],
      ['FAIL', MALFORMED_CHARS],
      ['SUCCESS', null],
      ['FAIL', `与同批次卡密重复（卡号 ${at(cards, 9).cardNo}）`],
      ['FAIL', MALFORMED_FORMULA],
      ['FAIL', MALFORMED_FORMULA],
      ['FAIL', MALFORMED_FORMULA],
      ['FAIL', MALFORMED_FORMULA],
      ['SUCCESS', null],
    ])
    expect(at(cards, 9).keyMask).toBe('TRI******Y-1')
    // The earlier ready card is untouched.
    expect((await db().card.findUniqueOrThrow({ where: { id: earlier[0].id } })).status).toBe('SUCCESS')
  })

  it('a key that was ready and then used stays taken: importing it again fails as a duplicate', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'USED'))
    expectOk(await callRoute(redeemRoute.POST, { token: user.token, body: { cardKey: card.key }, ip: '10.3.0.1' }))
    const { batchId } = await importKeys(admin, [card.key])
    await settleCards()
    const again = only(await cardsOf(batchId))
    expect([again.status, again.failReason]).toEqual(['FAIL', `与已有卡密重复（卡号 ${card.cardNo}）`])
    expect((await cardsWithKey(card.key)).filter((c) => c.status === 'SUCCESS')).toHaveLength(1)
  })

  it('points come from the CARD_DEFAULT_POINTS site config unless the import names them', async () => {
    const byDefault = await importKeys(admin, freshKeys(2, 'DEF'))
    expect((await cardsOf(byDefault.batchId)).map((c) => c.points)).toEqual([100, 100]) // the registry's default

    expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'CARD_DEFAULT_POINTS' }, body: { value: 37 } }))
    const configured = await importKeys(admin, freshKeys(2, 'CFG'))
    expect((await cardsOf(configured.batchId)).map((c) => c.points)).toEqual([37, 37])
    expect((await db().cardBatch.findUniqueOrThrow({ where: { id: configured.batchId } })).points).toBe(37)

    const explicit = await importKeys(admin, freshKeys(2, 'EXP'), { points: 5 })
    expect((await cardsOf(explicit.batchId)).map((c) => c.points)).toEqual([5, 5])
  })

  it('stores the expiry exactly as sent, on the batch and on every card', async () => {
    const { batchId } = await importKeys(admin, freshKeys(2, 'EXPIRY'), { expiresAt: '2030-01-02T03:04:05.678Z' })
    const instants = (await cardsOf(batchId)).map((c) => c.expiresAt?.toISOString())
    expect(instants).toEqual(['2030-01-02T03:04:05.678Z', '2030-01-02T03:04:05.678Z'])
    expect((await db().cardBatch.findUniqueOrThrow({ where: { id: batchId } })).expiresAt?.toISOString()).toBe('2030-01-02T03:04:05.678Z')
    // null is no expiry (not the start of 1970).
    const never = expectOk(await importAs(admin, { cards: freshKeys(1, 'NEVER'), expiresAt: null }))
    expect((await cardsOf(never.batchId)).map((c) => c.expiresAt)).toEqual([null])
  })

  it('refuses bad requests with 400 naming the problem, writing nothing at all', async () => {
    const before = await counts()
    const ok = 'A-VALID-KEY-1'
    const cases: Array<[unknown, string | RegExp]> = [
      ['[1,2]', '请求内容的格式不正确'],
      ['"ABCD-1234"', '请求内容的格式不正确'],
      ['{not json', '请求体不是合法的 JSON'],
      [{}, 'cards 必须是卡密列表'],
      [{ cards: 'ABCD-1234' }, 'cards 必须是卡密列表'],
      [{ cards: [] }, '请输入卡密'],
      [{ cards: Array.from({ length: 10_001 }, (_, i) => `MANY-KEY-${i}`) }, '一次最多导入 10000 个卡密'],
      [{ cards: [ok, 'y'.repeat(129)] }, '第 2 个卡密超过 128 个字符'],
      [{ cards: [ok, ''] }, '第 2 个卡密为空'],
      [{ cards: ['   ', ok] }, '第 1 个卡密为空'],
      [{ cards: [ok, 12345678] }, '卡密必须是字符串'],
      [{ cards: [ok], points: 0 }, '每张卡的积分至少为 1'],
      [{ cards: [ok], points: 1.5 }, '积分必须是整数'],
      [{ cards: [ok], points: '10' }, '积分的格式不正确'],
      [{ cards: [ok], note: 'n'.repeat(101) }, '备注最多 100 个字符'],
      [{ cards: [ok], expiresAt: 'not a date' }, '过期时间格式不正确'],
      [{ cards: [ok], expiresAt: 0 }, '过期时间格式不正确'],
      [{ cards: [ok], expiresAt: '2020-01-01T00:00:00.000Z' }, '过期时间必须晚于现在'],
      [{ cards: [ok], status: 'SUCCESS' }, '不支持的参数：status'],
    ]
    for (const [body, message] of cases) expectFail(await importAs(admin, body), 400, message)
    expect(await counts()).toEqual(before)
  })

  it('accepts exactly 10,000 keys in one request and checks them all, naming in-batch repeats as such', async () => {
    const keys = freshKeys(9_990, 'BULK')
    // Ten repeats inside the batch, about 9,990 rows after their first copies: the check
    // works in chunks of 1,000, so each first copy is already ready when its repeat is judged.
    keys.push(...keys.slice(0, 10))
    const { batchId, count } = await importKeys(admin, keys)
    expect(count).toBe(10_000)
    expect(await db().card.count({ where: { batchId, status: 'PENDING' } })).toBe(10_000)
    expect(await settleCards()).toBeGreaterThan(10) // really checked in several chunks
    const byStatus = await db().card.groupBy({ by: ['status'], where: { batchId }, _count: true })
    expect(Object.fromEntries(byStatus.map((g) => [g.status, g._count]))).toEqual({ SUCCESS: 9_990, FAIL: 10 })

    const cards = await cardsOf(batchId)
    const failed = cards.filter((c) => c.status === 'FAIL')
    expect(failed.map((c) => c.id)).toEqual(cards.slice(9_990).map((c) => c.id))
    expect(failed.map((c) => c.failReason)).toEqual(cards.slice(0, 10).map((first) => `与同批次卡密重复（卡号 ${first.cardNo}）`))
  }, 60_000)
})

describe('the background check survives crashes and concurrency', () => {
  it('cards claimed by a checker that died are settled by the next run', async () => {
    const keys = freshKeys(30, 'CRASH')
    const { batchId } = await importKeys(admin, [...keys, at(keys, 0), 'bad'])

    // A checker claims the rows, decides some, and dies before committing.
    const crash = db().$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "Card" WHERE "status" = 'PENDING' ORDER BY "id" FOR UPDATE SKIP LOCKED`
      expect(claimed.length).toBe(32)
      await tx.card.updateMany({ where: { id: { in: claimed.slice(0, 10).map((c) => c.id) } }, data: { status: 'SUCCESS' } })
      throw new Error('worker killed')
    })
    await expect(crash).rejects.toThrow('worker killed')
    expect(await db().card.count({ where: { batchId, status: 'PENDING' } })).toBe(32)

    await settleCards()
    const cards = await cardsOf(batchId)
    expect(cards.filter((c) => c.status === 'SUCCESS')).toHaveLength(30)
    expect(cards.slice(30).map((c) => c.failReason)).toEqual([`与同批次卡密重复（卡号 ${at(cards, 0).cardNo}）`, MALFORMED_LENGTH])
  })

  it('a checker stuck on some rows does not block the others, and its rows are settled once it dies', async () => {
    const first = await importKeys(admin, freshKeys(10, 'STUCK'))
    const second = await importKeys(admin, freshKeys(10, 'FREE'))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let claimedBy!: (ids: number[]) => void
    const claimed = new Promise<number[]>((resolve) => (claimedBy = resolve))

    const stuck = db().$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "Card" WHERE "batchId" = ${first.batchId} FOR UPDATE SKIP LOCKED`
        claimedBy(rows.map((r) => r.id))
        await held
        throw new Error('worker killed')
      },
      { timeout: 20_000 },
    )
    expect(await claimed).toHaveLength(10)

    // Meanwhile another checker settles everything it can reach and reports nothing left.
    expect(await checkPendingCards()).toBe(false)
    expect((await cardsOf(second.batchId)).every((c) => c.status === 'SUCCESS')).toBe(true)
    expect((await cardsOf(first.batchId)).every((c) => c.status === 'PENDING')).toBe(true)

    release()
    await expect(stuck).rejects.toThrow('worker killed')
    await settleCards()
    expect((await cardsOf(first.batchId)).every((c) => c.status === 'SUCCESS')).toBe(true)
  })

  it('several checkers at once over batches full of repeats: one ready card per key, every other copy failed', async () => {
    const k = freshKeys(1_500, 'RACE')
    const n = freshKeys(1_000, 'RACN')
    const m = freshKeys(800, 'RACM')
    // Repeats within and across batches, spread over different 1,000-card chunks and in
    // different orders, so concurrent checkers meet the same keys.
    const shuffled = <T>(xs: T[]) =>
      xs
        .map((x) => [Math.random(), x] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, x]) => x)
    await importKeys(admin, [...k, ...k.slice(0, 500).reverse()])
    await importKeys(admin, shuffled([...k.slice(1_000), ...n]))
    await importKeys(admin, shuffled([...k.slice(0, 100), ...n.slice(0, 100), ...m]))
    const total = 2_000 + 1_500 + 1_000

    // Each checker loops like the worker does (background-worker.ts): a run that throws is
    // logged and run again. Whether a run may throw at all is the next test's question.
    const checker = async () => {
      for (let runs = 0; runs < 100; runs++) {
        const again = await checkPendingCards().catch(() => true)
        if (!again) return
      }
    }
    await Promise.all([checker(), checker(), checker(), checker()])
    expect(await db().card.count({ where: { status: 'PENDING' } })).toBe(0)

    const all = [...k, ...n, ...m]
    const rows = await db().card.findMany({
      where: { keyMask: { startsWith: 'RAC' } },
      select: { keyHash: true, status: true, cardNo: true, failReason: true },
    })
    expect(rows).toHaveLength(total)
    const byHash = new Map<string, typeof rows>()
    for (const row of rows) byHash.set(row.keyHash, [...(byHash.get(row.keyHash) ?? []), row])
    expect(byHash.size).toBe(all.length)
    for (const copies of byHash.values()) {
      const ready = copies.filter((c) => c.status === 'SUCCESS')
      expect(ready).toHaveLength(1)
      // Every other copy failed, naming the ready card of the same key.
      for (const copy of copies.filter((c) => c !== ready[0])) {
        expect(copy.status).toBe('FAIL')
        expect(copy.failReason).toMatch(new RegExp(`^与(同批次|已有)卡密重复（卡号 ${at(ready, 0).cardNo}）$`))
      }
    }
    expect(rows.filter((r) => r.status === 'SUCCESS')).toHaveLength(all.length)
  }, 60_000)

  it('a checker that loses the race for a key to another checker runs again and fails its copy', async () => {
    const [key] = freshKeys(1, 'LOST')
    const ours = await importKeys(admin, [key])
    const theirs = await importKeys(admin, [key])
    const theirCard = only(await cardsOf(theirs.batchId))

    // The other checker has made its copy ready but not yet committed.
    let commit!: () => void
    const go = new Promise<void>((resolve) => (commit = resolve))
    let holding!: () => void
    const holds = new Promise<void>((resolve) => (holding = resolve))
    const other = db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "Card" WHERE "batchId" = ${theirs.batchId} FOR UPDATE`
        await tx.card.update({ where: { id: theirCard.id }, data: { status: 'SUCCESS' } })
        holding()
        await go
      },
      { timeout: 20_000 },
    )
    await holds
    const run = checkPendingCards().then(
      (value) => ({ value }),
      (error) => ({ error: error.code ?? error.message }),
    )
    await waitForLockWaiters(1) // ours waits on the unique index for the same key
    commit()
    await other
    expect(await run).toEqual({ value: true })

    await settleCards()
    const ourCard = only(await cardsOf(ours.batchId))
    expect([ourCard.status, ourCard.failReason]).toEqual(['FAIL', `与已有卡密重复（卡号 ${theirCard.cardNo}）`])
  })

  it('a key that cannot be decrypted any more fails with a reason instead of stopping the check', async () => {
    const { batchId } = await importKeys(admin, freshKeys(2, 'SEAL'))
    const [broken, fine] = pair(await cardsOf(batchId))
    await db().card.update({ where: { id: broken.id }, data: { cardKeyEnc: 'enc:v1:not-a-sealed-key' } })
    await settleCards()
    expect((await cardsOf(batchId)).map((c) => [c.id, c.status, c.failReason])).toEqual([
      [broken.id, 'FAIL', '卡密无法解密，请重新导入'],
      [fine.id, 'SUCCESS', null],
    ])
  })

  it('a checker that deadlocks with another checker over the same keys runs again instead of failing', async () => {
    // Two checkers meet keys a and b in opposite orders: the other checker makes b ready,
    // ours makes a ready and waits for b, the other then waits for a. PostgreSQL breaks
    // the cycle by aborting one of them; a checker must treat that like the unique-key
    // race it already handles (return true and run again), not fail the job.
    const [a, b] = freshKeys(2, 'LOCK')
    const ours = await importKeys(admin, [a, b])
    const theirs = await importKeys(admin, [b, a])
    const [theirB, theirA] = pair(await cardsOf(theirs.batchId))

    let proceed!: () => void
    const go = new Promise<void>((resolve) => (proceed = resolve))
    let holding!: () => void
    const holds = new Promise<void>((resolve) => (holding = resolve))
    const other = db()
      .$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT "id" FROM "Card" WHERE "batchId" = ${theirs.batchId} FOR UPDATE`
          await tx.card.update({ where: { id: theirB.id }, data: { status: 'SUCCESS' } })
          holding()
          await go
          await tx.card.update({ where: { id: theirA.id }, data: { status: 'SUCCESS' } })
        },
        { timeout: 20_000 },
      )
      .then(
        () => 'committed',
        () => 'aborted',
      )
    await holds

    const run = checkPendingCards().then(
      (value) => ({ value }),
      (error) => ({ error: error.code ?? error.message }),
    )
    await waitForLockWaiters(1) // ours is waiting for b
    proceed()
    const otherOutcome = await other
    expect(otherOutcome).toBe('committed') // PostgreSQL aborted our checker's transaction ...
    expect(await run).toEqual({ value: true }) // ... which must say "run again", not throw

    await settleCards()
    const [ourA, ourB] = pair(await cardsOf(ours.batchId))
    expect([ourA.status, ourA.failReason, ourB.status, ourB.failReason]).toEqual([
      'FAIL',
      `与已有卡密重复（卡号 ${theirA.cardNo}）`,
      'FAIL',
      `与已有卡密重复（卡号 ${theirB.cardNo}）`,
    ])
  }, 30_000)
})

/** Waits until `n` sessions of this database wait for a lock (a row or another transaction). */
async function waitForLockWaiters(n: number) {
  for (let i = 0; i < 200; i++) {
    const { waiting } = only(
      await db().$queryRaw<{ waiting: number }[]>`
      SELECT COUNT(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    )
    if (waiting >= n) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no session started waiting for a lock`)
}

describe('GET /api/admin/cards', () => {
  let batchId: number
  let keys: string[]
  beforeAll(async () => {
    // 45 cards: 40 long keys (5 of them repeats, which fail) and 5 short ones.
    const long = freshKeys(35, 'LIST')
    keys = [...long, ...long.slice(0, 5), 'Qx7z', 'Wv8y5', 'Pj3k9m', 'Tn4h2', 'Rb6c']
    ;({ batchId } = await importKeys(admin, keys, { note: '列表批次' }))
  })

  it('pages newest first with data.list and data.total', async () => {
    const pages = await Promise.all([1, 2, 3].map(async (page) => expectOk(await list(admin, { batchId, page, pageSize: 20 }))))
    expect(pages.map((p) => [p.list.length, p.total])).toEqual([
      [20, 45],
      [20, 45],
      [5, 45],
    ])
    const ids = pages.flatMap((p) => p.list.map((c: { id: number }) => c.id))
    expect(ids).toEqual((await cardsOf(batchId)).map((c) => c.id).reverse())
    expect(expectOk(await list(admin, { batchId, page: 4, pageSize: 20 }))).toEqual({ list: [], total: 45 })
    // docs/PRODUCT.md §9: 20 per page by default.
    expect(expectOk(await list(admin, { batchId })).list).toHaveLength(20)
  })

  it('shows every key masked (first 3, six stars, last 3) and never a full key anywhere', async () => {
    const page = expectOk(await list(admin, { batchId, page: 3, pageSize: 20 }))
    // The oldest five: the first five long keys.
    expect(page.list.map((c: { cardKey: string }) => c.cardKey)).toEqual(
      keys
        .slice(0, 5)
        .reverse()
        .map((k) => `${k.slice(0, 3)}******${k.slice(-3)}`),
    )
    const everything = await list(admin, { batchId, page: 1, pageSize: 100 })
    const json = JSON.stringify(everything.body)
    for (const key of keys) expect(json).not.toContain(key)
    expect(json).not.toMatch(/keyHash|cardKeyEnc/)
    // Keys of six characters or fewer show only their first and last character.
    const short = Object.fromEntries(
      everything.body.data.list.filter((c: { cardKey: string }) => !c.cardKey.startsWith('LIS')).map((c: { cardKey: string }) => [c.cardKey, true]),
    )
    expect(Object.keys(short).sort()).toEqual(['P******m', 'Q******z', 'R******c', 'T******2', 'W******5'])
  })

  it('a row carries what the screen shows: number, masked key, claimant, used time, status, batch', async () => {
    const [row] = expectOk(await list(admin, { batchId, page: 1, pageSize: 1 })).list
    expect(Object.keys(row).sort()).toEqual([
      'batch',
      'cardKey',
      'cardNo',
      'claimant',
      'createdAt',
      'disabledAt',
      'expiresAt',
      'exportedAt',
      'failReason',
      'holder',
      'id',
      'points',
      'status',
      'usedAt',
    ])
    expect(row).toMatchObject({
      cardNo: expect.stringMatching(/^C\d{8}$/),
      claimant: null,
      holder: null,
      usedAt: null,
      batch: { id: batchId, note: '列表批次' },
    })
  })

  it('filters by status, PENDING before the check and SUCCESS/FAIL after it', async () => {
    const pending = expectOk(await list(admin, { batchId, status: 'PENDING' }))
    expect(pending.total).toBe(45)
    await settleCards()
    const ready = expectOk(await list(admin, { batchId, status: 'SUCCESS', pageSize: 100 }))
    const failed = expectOk(await list(admin, { batchId, status: 'FAIL', pageSize: 100 }))
    expect([ready.total, failed.total]).toEqual([40, 5])
    expect(ready.list.every((c: { status: string; failReason: null }) => c.status === 'SUCCESS' && c.failReason === null)).toBe(true)
    expect(failed.list.every((c: { status: string; failReason: string }) => c.status === 'FAIL' && c.failReason.startsWith('与同批次卡密重复'))).toBe(true)
    expect(expectOk(await list(admin, { batchId, status: 'PENDING' })).total).toBe(0)
    expectFail(await list(admin, { status: 'USED' }), 400, '状态的取值不在可选范围内')
  })

  it('finds a card by its number', async () => {
    const card = at(await cardsOf(batchId), 0)
    const found = expectOk(await list(admin, { keyword: card.cardNo.toLowerCase() }))
    expect([found.total, found.list[0].id]).toEqual([1, card.id])
  })

  it('refuses a page size over 100 or a page below 1', async () => {
    expectFail(await list(admin, { pageSize: 101 }), 400, '每页条数不能大于 100')
    expectFail(await list(admin, { page: 0 }), 400, '页码不能小于 1')
  })
})

describe('access to the admin card routes', () => {
  it('a USER gets 403 on every admin card route and nothing is written', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'ACCESS'))
    const before = await counts()
    expectFail(await list(user, {}), 403)
    expectFail(await importAs(user, { cards: freshKeys(1, 'NOPE') }), 403)
    expectFail(await callRoute(assignRoute.POST, { token: user.token, params: { id: String(card.id) }, body: { userId: user.id } }), 403)
    expectFail(await callRoute(disableRoute.POST, { token: user.token, params: { id: String(card.id) }, body: { disabled: true } }), 403)
    expectFail(await callRoute(exportRoute.GET, { token: user.token }), 403)
    expect(await counts()).toEqual(before)
    expect(await db().card.findUniqueOrThrow({ where: { id: card.id } })).toMatchObject({ holderId: null, disabledAt: null })
  })

  it('without a token every admin card route answers 401', async () => {
    expectFail(await callRoute(listRoute.GET, {}), 401)
    expectFail(await callRoute(importRoute.POST, { body: { cards: ['ABCD-1234'] } }), 401)
    expectFail(await callRoute(exportRoute.GET, {}), 401)
  })

  it('a MANAGER may list and disable, but not enable again, import, assign or export (they issue value or reveal keys)', async () => {
    const [card] = await readyCards(admin, freshKeys(1, 'MGR'))
    expectOk(await list(manager, {}))
    const before = await counts()
    expectFail(await importAs(manager, { cards: freshKeys(2, 'MGR'), points: 1_000_000 }), 403, '没有权限')
    expectFail(await callRoute(assignRoute.POST, { token: manager.token, params: { id: String(card.id) }, body: { userId: user.id } }), 403, '没有权限')
    expectFail(await callRoute(exportRoute.GET, { token: manager.token }), 403, '没有权限')
    expect(await counts()).toEqual(before)
    expect((await db().card.findUniqueOrThrow({ where: { id: card.id } })).holderId).toBeNull()

    const toggle = (disabled: boolean) => callRoute(disableRoute.POST, { token: manager.token, params: { id: String(card.id) }, body: { disabled } })
    expect(expectOk(await toggle(true)).disabledAt).not.toBeNull()
    expectFail(await toggle(false), 403, '只有管理员可以重新启用卡密')
    expect((await db().card.findUniqueOrThrow({ where: { id: card.id } })).disabledAt).not.toBeNull()
    expect(await db().adminAuditLog.count({ where: { action: 'card.enable', targetId: String(card.id) } })).toBe(0)
    const enabled = await callRoute(disableRoute.POST, { token: admin.token, params: { id: String(card.id) }, body: { disabled: false } })
    expect(expectOk(enabled).disabledAt).toBeNull()
  })
})
