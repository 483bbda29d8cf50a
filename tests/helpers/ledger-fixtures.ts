// Shared by the ledger-* and cards-* integration tests: quick users and the money invariants.
import { expect } from 'vitest'
import { db } from '@/lib/db'
import type { Role } from '@/lib/generated/prisma/enums'
import { withOpening } from './call-route'

let counter = 0

/**
 * Like createUser, without hashing a password (these users never log in with one), so a
 * test can make dozens at once. Opening points/balance go through the ledger.
 */
export async function quickUser(options: { role?: Role; points?: number; balance?: number; name?: string } = {}) {
  const username = `lq${process.pid.toString(36)}${Date.now().toString(36)}${counter++}`
  const user = await db().user.create({ data: { username, name: options.name ?? username, role: options.role ?? 'USER' } })
  return withOpening(user.id, options, 'quick-opening')
}

export type QuickUser = Awaited<ReturnType<typeof quickUser>>

export const quickUsers = (n: number, options: Parameters<typeof quickUser>[0] = {}) => Promise.all(Array.from({ length: n }, () => quickUser(options)))

type Mismatch = { userId: string; account: string; column: number; ledger: number }

/** For every user and account: the column against SUM(ledger.amount). Returns the mismatches. */
export async function ledgerMismatches(): Promise<Mismatch[]> {
  const rows = await db().$queryRaw<Array<{ id: string; points: number; balance: number; lp: bigint; lb: bigint }>>`
    SELECT u."id", u."points", u."balance",
      COALESCE(SUM(l."amount") FILTER (WHERE l."account" = 'POINTS'), 0) AS lp,
      COALESCE(SUM(l."amount") FILTER (WHERE l."account" = 'BALANCE'), 0) AS lb
    FROM "User" u LEFT JOIN "LedgerEntry" l ON l."userId" = u."id"
    GROUP BY u."id"`
  const out: Mismatch[] = []
  for (const r of rows) {
    if (Number(r.lp) !== r.points) out.push({ userId: r.id, account: 'POINTS', column: r.points, ledger: Number(r.lp) })
    if (Number(r.lb) !== r.balance) out.push({ userId: r.id, account: 'BALANCE', column: r.balance, ledger: Number(r.lb) })
  }
  return out
}

/**
 * Every money invariant at once: SUM(ledger) == column for every user and account,
 * nothing negative, no reference twice, and each row's balanceAfter is the running sum
 * of its user's account in id order (rows of one user are written under its row lock).
 */
export async function expectLedgerInvariants(): Promise<void> {
  expect(await ledgerMismatches()).toEqual([])
  const negative = await db().user.count({ where: { OR: [{ points: { lt: 0 } }, { balance: { lt: 0 } }] } })
  expect(negative).toBe(0)
  const repeated = await db().$queryRaw<unknown[]>`SELECT "reference" FROM "LedgerEntry" GROUP BY "reference" HAVING COUNT(*) > 1`
  expect(repeated).toEqual([])
  const brokenChain = await db().$queryRaw<unknown[]>`
    SELECT "id" FROM (
      SELECT "id", "balanceAfter", SUM("amount") OVER (PARTITION BY "userId", "account" ORDER BY "id") AS running
      FROM "LedgerEntry") t
    WHERE t.running <> t."balanceAfter" OR t."balanceAfter" < 0`
  expect(brokenChain).toEqual([])
}
