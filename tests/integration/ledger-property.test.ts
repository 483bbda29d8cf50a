// A property test of the ledger (docs/PRODUCT.md §10): thousands
// of random concurrent credits and debits through postMovement, then every invariant.
// The seed is random per run and printed in every failure; LEDGER_SEED=<n> replays a run.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import type { LedgerAccount } from '@/lib/generated/prisma/enums'
import { AppError } from '@/lib/http/app-error'
import { AlreadyBookedError, postMovement } from '@/lib/ledger/post-movement'
import { expectLedgerInvariants, quickUser, type QuickUser } from '../helpers/ledger-fixtures'
import { at } from '../helpers/present'

const USERS = 20
const WAVES = 30
const WAVE_SIZE = 100
const SEED = Number(process.env.LEDGER_SEED ?? Math.floor(Math.random() * 2 ** 31))
const why = (text: string) => `${text} (LEDGER_SEED=${SEED})`

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), pick: <T>(xs: T[]) => at(xs, Math.floor(next() * xs.length)) }
}

type Move = { userId: string; account: LedgerAccount; amount: number; reference: string }
/**
 * One transaction of the run. `mustFail`: it can never succeed (a debit larger than the
 * account could hold at any moment of its wave, or a reference booked in an earlier wave).
 * `mustSucceed`: nothing in its wave could make it fail. `rollback`: the caller throws
 * after booking, so nothing may remain.
 */
type Attempt = {
  n: number
  moves: [Move, ...Move[]]
  kind: 'single' | 'pair' | 'overdraw' | 'rollback' | 'repeat-old' | 'repeat-twin'
  mustFail?: 'insufficient' | 'duplicate'
  mustSucceed?: boolean
  rollback?: boolean
}
type Outcome = 'booked' | 'insufficient' | 'duplicate' | 'rolled-back' | { unexpected: string }

class Boom extends Error {}

async function run(attempt: Attempt): Promise<Outcome> {
  try {
    await db().$transaction(async (tx) => {
      for (const move of attempt.moves) await postMovement(tx, { ...move, kind: 'ADMIN_ADJUST', note: `property ${attempt.n}` })
      if (attempt.rollback) throw new Boom('the caller fails after booking')
    })
    return 'booked'
  } catch (error) {
    if (error instanceof Boom) return 'rolled-back'
    if (error instanceof AlreadyBookedError) return 'duplicate'
    if (error instanceof AppError && error.code === 'INSUFFICIENT_POINTS' && error.message === '积分不足') return 'insufficient'
    if (error instanceof AppError && error.code === 'BAD_REQUEST' && error.message === '余额不足') return 'insufficient'
    return { unexpected: `${(error as Error).name}: ${(error as Error).message}` }
  }
}

describe('postMovement under random concurrent load', () => {
  const r = rng(SEED)
  let users: QuickUser[]
  const column = (u: { points: number; balance: number }, account: LedgerAccount) => (account === 'POINTS' ? u.points : u.balance)
  const results: Array<{ attempt: Attempt; outcome: Outcome }> = []
  const opening = new Map<string, { points: number; balance: number }>()

  beforeAll(async () => {
    users = await Promise.all(Array.from({ length: USERS }, () => quickUser({ points: r.int(0, 400), balance: r.int(0, 40_000) })))
    for (const u of users) opening.set(u.id, { points: u.points, balance: u.balance })

    let n = 0
    const bookedSingles: Attempt[] = []
    for (let wave = 0; wave < WAVES; wave++) {
      // What each account holds as the wave starts: the bounds below follow from it.
      const now = new Map((await db().user.findMany({ select: { id: true, points: true, balance: true } })).map((u) => [u.id, u]))
      const attempts: Attempt[] = []
      const randomMove = (): Move => {
        const account: LedgerAccount = r.next() < 0.5 ? 'POINTS' : 'BALANCE'
        const scale = account === 'POINTS' ? 60 : 6_000
        const amount = r.next() < 0.55 ? r.int(1, scale) : -r.int(1, scale * 1.5)
        return { userId: r.pick(users).id, account, amount, reference: `prop:${SEED}:${n}` }
      }
      for (let i = 0; i < WAVE_SIZE; i++) {
        n++
        const roll = r.next()
        if (roll < 0.62) attempts.push({ n, kind: 'single', moves: [randomMove()] })
        else if (roll < 0.74) {
          // A purchase-like transaction: take points, give balance; both rows or neither.
          const userId = r.pick(users).id
          attempts.push({
            n,
            kind: 'pair',
            moves: [
              { userId, account: 'POINTS', amount: -r.int(1, 120), reference: `prop:${SEED}:${n}:a` },
              { userId, account: 'BALANCE', amount: r.int(1, 3_000), reference: `prop:${SEED}:${n}:b` },
            ],
          })
        } else if (roll < 0.84)
          attempts.push({ n, kind: 'overdraw', moves: [randomMove()], mustFail: 'insufficient' }) // amount set below
        else if (roll < 0.89) attempts.push({ n, kind: 'rollback', moves: [{ ...randomMove(), amount: r.int(1, 500) }], rollback: true })
        else if (roll < 0.95 && bookedSingles.length) {
          // The reference of an event booked in an earlier wave, now as a credit (never short of funds).
          const old = r.pick(bookedSingles).moves[0]
          attempts.push({ n, kind: 'repeat-old', moves: [{ ...randomMove(), amount: r.int(1, 500), reference: old.reference }], mustFail: 'duplicate' })
        } else {
          // Two concurrent credits naming one new event: exactly one may be booked.
          const move = { ...randomMove(), amount: r.int(1, 500) }
          attempts.push({ n, kind: 'repeat-twin', moves: [move] }, { n, kind: 'repeat-twin', moves: [{ ...move, userId: r.pick(users).id }] })
          i++
        }
      }

      // Bounds over the whole wave, whatever order the transactions commit in.
      const credits = new Map<string, number>()
      const debits = new Map<string, number>()
      const slot = (m: Move) => `${m.userId}:${m.account}`
      for (const a of attempts) {
        if (a.kind === 'overdraw' || a.rollback || a.mustFail) continue
        for (const m of a.moves) {
          const into = m.amount > 0 ? credits : debits
          into.set(slot(m), (into.get(slot(m)) ?? 0) + Math.abs(m.amount))
        }
      }
      for (const a of attempts) {
        const m = a.moves[0]
        const start = column(now.get(m.userId)!, m.account)
        if (a.kind === 'overdraw') {
          // One unit more than the account could ever hold during this wave.
          m.amount = -(start + (credits.get(slot(m)) ?? 0) + r.int(1, 50))
        } else if (a.kind === 'single' && m.amount < 0) {
          // Even if every other debit lands first and no credit does, this one still fits.
          a.mustSucceed = -m.amount <= start - ((debits.get(slot(m)) ?? 0) + m.amount)
        } else if (a.kind === 'single' || a.kind === 'rollback') a.mustSucceed = m.amount > 0
      }

      const outcomes = await Promise.all(attempts.map(run))
      attempts.forEach((attempt, i) => {
        const outcome = at(outcomes, i)
        results.push({ attempt, outcome })
        if (attempt.kind === 'single' && outcome === 'booked') bookedSingles.push(attempt)
      })
    }
  }, 120_000)

  const outcomesOf = (kind: Attempt['kind']) => results.filter((x) => x.attempt.kind === kind)

  it('ran thousands of transactions of every kind, and none failed in an unexpected way', () => {
    expect(results.length).toBeGreaterThanOrEqual(WAVES * WAVE_SIZE)
    const unexpected = results.filter((x) => typeof x.outcome === 'object').map((x) => ({ n: x.attempt.n, kind: x.attempt.kind, ...(x.outcome as object) }))
    expect(unexpected, why('unexpected errors')).toEqual([])
    for (const kind of ['single', 'pair', 'overdraw', 'rollback', 'repeat-old', 'repeat-twin'] as const)
      expect(outcomesOf(kind).length, why(kind)).toBeGreaterThan(20)
    // The load really was mixed: plenty booked, plenty refused for funds.
    expect(results.filter((x) => x.outcome === 'booked').length, why('booked')).toBeGreaterThan(1000)
    expect(outcomesOf('single').filter((x) => x.outcome === 'insufficient').length, why('refused singles')).toBeGreaterThan(0)
  })

  it('every column equals the sum of its ledger rows, nothing is negative, no reference repeats', async () => {
    await expectLedgerInvariants()
  })

  it('every column equals its opening value plus exactly the booked movements', async () => {
    const expected = new Map([...opening].map(([id, o]) => [id, { ...o }]))
    for (const { attempt, outcome } of results) {
      if (outcome !== 'booked') continue
      for (const m of attempt.moves) expected.get(m.userId)![m.account === 'POINTS' ? 'points' : 'balance'] += m.amount
    }
    const actual = await db().user.findMany({ select: { id: true, points: true, balance: true } })
    expect(new Map(actual.map((u) => [u.id, { points: u.points, balance: u.balance }])), why('columns')).toEqual(expected)
  })

  it('every overdraw was refused with the right error and left no row', async () => {
    const overdraws = outcomesOf('overdraw')
    expect(
      overdraws.map((x) => x.outcome),
      why('overdraw outcomes'),
    ).toEqual(overdraws.map(() => 'insufficient'))
    const refs = results.filter((x) => x.outcome === 'insufficient').flatMap((x) => x.attempt.moves.map((m) => m.reference))
    expect(await db().ledgerEntry.count({ where: { reference: { in: refs } } })).toBe(0)
  })

  it('only debits were ever refused for funds, and no debit that fitted in any order was refused', () => {
    const refusedCredits = results.filter((x) => x.outcome === 'insufficient' && x.attempt.moves.every((m) => m.amount > 0))
    expect(refusedCredits, why('refused credits')).toEqual([])
    const wronglyRefused = results.filter((x) => x.attempt.mustSucceed && x.outcome !== (x.attempt.rollback ? 'rolled-back' : 'booked'))
    expect(
      wronglyRefused.map((x) => ({ n: x.attempt.n, moves: x.attempt.moves, outcome: x.outcome })),
      why('refused although it fitted'),
    ).toEqual([])
    expect(results.filter((x) => x.attempt.mustSucceed).length).toBeGreaterThan(500)
  })

  it('a transaction of two movements left both rows or neither', async () => {
    const pairs = outcomesOf('pair')
    const rows = await db().ledgerEntry.findMany({
      where: { reference: { in: pairs.flatMap((x) => x.attempt.moves.map((m) => m.reference)) } },
      select: { reference: true },
    })
    const present = new Set(rows.map((row) => row.reference))
    for (const { attempt, outcome } of pairs) {
      const [a, b] = attempt.moves.map((m) => present.has(m.reference))
      expect({ n: attempt.n, a, b }, why('pair')).toEqual({ n: attempt.n, a: outcome === 'booked', b: outcome === 'booked' })
    }
    expect(pairs.some((x) => x.outcome === 'booked') && pairs.some((x) => x.outcome === 'insufficient'), why('pairs both ways')).toBe(true)
  })

  it('a transaction that failed after booking left nothing behind', async () => {
    const rolled = outcomesOf('rollback')
    expect(
      rolled.map((x) => x.outcome),
      why('rollback outcomes'),
    ).toEqual(rolled.map(() => 'rolled-back'))
    expect(await db().ledgerEntry.count({ where: { reference: { in: rolled.map((x) => x.attempt.moves[0].reference) } } })).toBe(0)
  })

  it('a reference booked before is refused with AlreadyBookedError and changes nothing', async () => {
    const repeats = outcomesOf('repeat-old')
    expect(
      repeats.map((x) => x.outcome),
      why('repeat outcomes'),
    ).toEqual(repeats.map(() => 'duplicate'))
    // The stored row is still the original event's, not the repeat's.
    const originals = new Map(
      results.filter((x) => x.attempt.kind === 'single' && x.outcome === 'booked').map((x) => [x.attempt.moves[0].reference, x.attempt.moves[0]]),
    )
    const rows = await db().ledgerEntry.findMany({ where: { reference: { in: repeats.map((x) => x.attempt.moves[0].reference) } } })
    for (const row of rows) {
      const original = originals.get(row.reference)!
      expect({ userId: row.userId, account: row.account, amount: row.amount }).toEqual({
        userId: original.userId,
        account: original.account,
        amount: original.amount,
      })
    }
    expect(new Set(rows.map((row) => row.reference)).size).toBe(new Set(repeats.map((x) => x.attempt.moves[0].reference)).size)
  })

  it('of two concurrent movements naming one new event, exactly one was booked', async () => {
    const byRef = new Map<string, Outcome[]>()
    for (const { attempt, outcome } of outcomesOf('repeat-twin'))
      byRef.set(attempt.moves[0].reference, [...(byRef.get(attempt.moves[0].reference) ?? []), outcome])
    for (const [reference, outcomes] of byRef)
      expect({ reference, outcomes: [...outcomes].sort() }, why('twins')).toEqual({ reference, outcomes: ['booked', 'duplicate'] })
    expect(await db().ledgerEntry.count({ where: { reference: { in: [...byRef.keys()] } } })).toBe(byRef.size)
  })
})

describe('postMovement refuses what is not a movement', () => {
  it('refuses a zero, fractional or unsafe amount and an unknown user, writing nothing', async () => {
    const user = await quickUser({ points: 10 })
    const before = await db().ledgerEntry.count()
    for (const amount of [0, 1.5, Number.NaN, 2 ** 53]) {
      await expect(
        db().$transaction((tx) => postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount, reference: `bad-amount:${amount}` })),
      ).rejects.toThrow(/non-zero integer/)
    }
    const missing = await db()
      .$transaction((tx) => postMovement(tx, { userId: 'no-such-user', account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: 5, reference: 'ghost' }))
      .catch((e) => e)
    expect(missing).toBeInstanceOf(AppError)
    expect({ code: missing.code, message: missing.message }).toEqual({ code: 'NOT_FOUND', message: '用户不存在' })
    expect(await db().ledgerEntry.count()).toBe(before)
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(10)
  })

  it('returns the new value of the account and the entry it wrote', async () => {
    const user = await quickUser({ points: 10, balance: 500 })
    const posted = await db().$transaction((tx) =>
      postMovement(tx, { userId: user.id, account: 'BALANCE', kind: 'ADMIN_ADJUST', amount: -499, reference: `exact:${user.id}` }),
    )
    expect(posted.balanceAfter).toBe(1)
    const row = await db().ledgerEntry.findUniqueOrThrow({ where: { id: posted.entryId } })
    expect(row).toMatchObject({ userId: user.id, account: 'BALANCE', amount: -499, balanceAfter: 1, reference: `exact:${user.id}` })
    // Down to exactly zero is allowed; one more is not.
    await db().$transaction((tx) => postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: -10, reference: `zero:${user.id}` }))
    const refused = await db()
      .$transaction((tx) => postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: -1, reference: `below:${user.id}` }))
      .catch((e) => e)
    expect({ code: refused.code, message: refused.message }).toEqual({ code: 'INSUFFICIENT_POINTS', message: '积分不足' })
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { points: true, balance: true } })).toEqual({ points: 0, balance: 1 })
  })
})

describe('the database guards the ledger by itself', () => {
  let user: QuickUser
  beforeAll(async () => {
    user = await quickUser({ points: 7, balance: 300 })
  })

  it('refuses UPDATE and DELETE of ledger rows (append-only trigger)', async () => {
    const rows = await db().ledgerEntry.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })
    expect(rows).toHaveLength(2)
    await expect(db().$executeRawUnsafe(`UPDATE "LedgerEntry" SET "amount" = 1000 WHERE "userId" = $1`, user.id)).rejects.toThrow(/LedgerEntry is append-only/)
    await expect(db().$executeRawUnsafe(`DELETE FROM "LedgerEntry" WHERE "userId" = $1`, user.id)).rejects.toThrow(/LedgerEntry is append-only/)
    await expect(db().ledgerEntry.update({ where: { id: at(rows, 0).id }, data: { note: 'edited' } })).rejects.toThrow(/append-only/)
    await expect(db().ledgerEntry.deleteMany({ where: { userId: user.id } })).rejects.toThrow(/append-only/)
    expect(await db().ledgerEntry.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })).toEqual(rows)
  })

  it('refuses a negative points or balance column (CHECK), even written directly', async () => {
    await expect(db().$executeRawUnsafe(`UPDATE "User" SET "points" = -1 WHERE "id" = $1`, user.id)).rejects.toThrow(/User_points_nonnegative/)
    await expect(db().$executeRawUnsafe(`UPDATE "User" SET "balance" = "balance" - 301 WHERE "id" = $1`, user.id)).rejects.toThrow(/User_balance_nonnegative/)
    await expect(db().user.update({ where: { id: user.id }, data: { points: { decrement: 8 } } })).rejects.toThrow(/User_points_nonnegative|check constraint/)
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { points: true, balance: true } })).toEqual({ points: 7, balance: 300 })
  })

  it('refuses ledger rows of amount 0, a negative balanceAfter, or a repeated reference', async () => {
    const row = (over: Record<string, unknown>) =>
      db().ledgerEntry.create({
        data: { userId: user.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: 1, balanceAfter: 1, reference: `raw:${Math.random()}`, ...over },
      })
    await expect(row({ amount: 0 })).rejects.toThrow(/LedgerEntry_amount_nonzero|check constraint/)
    await expect(row({ balanceAfter: -1 })).rejects.toThrow(/LedgerEntry_balanceAfter_nonnegative|check constraint/)
    await expect(row({ reference: `quick-opening:${user.id}:points` })).rejects.toMatchObject({ code: 'P2002' })
    expect(await db().ledgerEntry.count({ where: { userId: user.id } })).toBe(2)
  })
})
