import 'server-only'
import type { Tx } from '@/lib/db'
import type { LedgerAccount, LedgerKind } from '@/lib/generated/prisma/enums'
import { AppError } from '@/lib/http/app-error'

export type Movement = {
  userId: string
  account: LedgerAccount
  kind: LedgerKind
  /** Signed, non-zero: cents for BALANCE, points for POINTS. */
  amount: number
  /** Names the event; a second movement with the same reference is refused. */
  reference: string
  note?: string
  actorId?: string
}

export type Posted = { entryId: number; balanceAfter: number }

/** Thrown when a reference was booked before: the event already happened. */
export class AlreadyBookedError extends Error {
  constructor(readonly reference: string) {
    super(`Ledger reference already booked: ${reference}`)
    this.name = 'AlreadyBookedError'
  }
}

export const INSUFFICIENT_POINTS_MESSAGE = '积分不足'
/** The largest value a points or balance column holds (PostgreSQL integer). */
export const MAX_STORED = 2_147_483_647
export const INSUFFICIENT_BALANCE_MESSAGE = '余额不足'

/**
 * The only way value moves. Inside the caller's transaction: a guarded update of the
 * user's column (it never goes below zero, so concurrent debits cannot overdraw) and
 * the ledger row with its unique reference. Either both happen or, when the transaction
 * fails, neither.
 */
export async function postMovement(tx: Tx, m: Movement): Promise<Posted> {
  if (!Number.isSafeInteger(m.amount) || m.amount === 0) throw new Error(`Ledger amount must be a non-zero integer, got ${m.amount}`)

  // The guard computes in bigint, so a credit past the column's range is refused here
  // instead of failing as an integer overflow.
  const rows =
    m.account === 'POINTS'
      ? await tx.$queryRaw<{ after: number }[]>`
          UPDATE "User" SET "points" = "points" + ${m.amount}, "updatedAt" = now()
          WHERE "id" = ${m.userId} AND "points"::bigint + ${m.amount} BETWEEN 0 AND ${MAX_STORED}
          RETURNING "points" AS "after"`
      : await tx.$queryRaw<{ after: number }[]>`
          UPDATE "User" SET "balance" = "balance" + ${m.amount}, "updatedAt" = now()
          WHERE "id" = ${m.userId} AND "balance"::bigint + ${m.amount} BETWEEN 0 AND ${MAX_STORED}
          RETURNING "balance" AS "after"`

  const [row] = rows
  if (!row) {
    const exists = await tx.user.count({ where: { id: m.userId } })
    if (!exists) throw new AppError('NOT_FOUND', '用户不存在')
    if (m.amount > 0) throw new AppError('BAD_REQUEST', m.account === 'POINTS' ? '积分超出可记录的上限' : '余额超出可记录的上限')
    throw m.account === 'POINTS' ? new AppError('INSUFFICIENT_POINTS', INSUFFICIENT_POINTS_MESSAGE) : new AppError('BAD_REQUEST', INSUFFICIENT_BALANCE_MESSAGE)
  }

  const balanceAfter = row.after
  try {
    const entry = await tx.ledgerEntry.create({
      data: { userId: m.userId, account: m.account, kind: m.kind, amount: m.amount, balanceAfter, reference: m.reference, note: m.note, actorId: m.actorId },
      select: { id: true },
    })
    return { entryId: entry.id, balanceAfter }
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new AlreadyBookedError(m.reference)
    throw error
  }
}
