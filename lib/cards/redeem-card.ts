import 'server-only'
import { db, type Tx } from '@/lib/db'
import { countFailure, inTurn, lockAndCheckLimits, type Limit } from '@/lib/auth/rate-limit'
import { AppError, badRequest, conflict, notFound } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { limitAddress } from '@/lib/http/client-ip'
import { hashKey } from './card-key'
import { toMyCard, type MyCard } from './card-views'
import type { TRedeem } from './schemas'

/** Failed redemptions allowed before a wait (guessing keys): docs/PROTOCOLS.md §8.1. */
export const REDEEM_LIMITS = {
  perUser: { max: 10, windowSeconds: 60 * 60 },
  perIp: { max: 30, windowSeconds: 60 * 60 },
}

/** Attempts of one user or address take turns before their transaction (inTurn); these are for the wait on other processes. */
const REDEEM_TX = { maxWait: 15_000, timeout: 20_000 }

type CardState = {
  id: number
  status: string
  usedAt: Date | null
  usedById: string | null
  holderId: string | null
  disabledAt: Date | null
  expiresAt: Date | null
}

/** Why a card cannot be redeemed by this user now, as the user should read it. */
function refusal(card: CardState | null, userId: string): AppError {
  if (!card || (card.holderId && card.holderId !== userId)) return notFound('卡密不存在，请检查后重试')
  if (card.status === 'PENDING') return conflict('卡密正在校验中，请稍后再试')
  if (card.status === 'FAIL') return badRequest('卡密无效')
  if (card.usedAt) return conflict(card.usedById === userId ? '你已使用过该卡密' : '该卡密已被使用')
  if (card.disabledAt) return badRequest('该卡密已停用')
  if (card.expiresAt && card.expiresAt <= new Date()) return badRequest('该卡密已过期')
  return conflict('该卡密已被使用')
}

/**
 * Claims a card in one conditional UPDATE: of any number of concurrent attempts on one
 * card, exactly one changes the row and credits the points (ledger reference
 * card:<id>:redeem); everyone else gets a clear refusal.
 */
async function claim(tx: Tx, cardId: number, userId: string): Promise<{ card: MyCard; points: number } | null> {
  const claimed = await tx.$queryRaw<Parameters<typeof toMyCard>[0][]>`
    UPDATE "Card" SET "usedById" = ${userId}, "usedAt" = now()
    WHERE "id" = ${cardId} AND "status" = 'SUCCESS' AND "usedAt" IS NULL AND "disabledAt" IS NULL
      AND ("expiresAt" IS NULL OR "expiresAt" > now()) AND ("holderId" IS NULL OR "holderId" = ${userId})
    RETURNING "id", "cardNo", "keyMask", "points", "createdAt", "usedAt", "expiresAt", "disabledAt"`
  const [row] = claimed
  if (!row) return null
  const card = toMyCard(row)
  await postMovement(tx, { userId, account: 'POINTS', kind: 'CARD_REDEEM', amount: card.points, reference: `card:${cardId}:redeem`, note: '卡密兑换' })
  return { card, points: card.points }
}

const STATE_SELECT = { id: true, status: true, usedAt: true, usedById: true, holderId: true, disabledAt: true, expiresAt: true } as const

/** Redeems a typed key, or a card the user holds, crediting its points through the ledger. */
export async function redeemCard(userId: string, ip: string, input: TRedeem): Promise<{ card: MyCard; points: number }> {
  const limits: Limit[] = [
    { key: `redeem:user:${userId}`, ...REDEEM_LIMITS.perUser },
    { key: `redeem:ip:${limitAddress(ip)}`, ...REDEEM_LIMITS.perIp },
  ]

  const outcome = await inTurn(limits, () =>
    db().$transaction(async (tx) => {
      // One user's (and one address's) attempts take turns, so the failure count checked
      // here is exact even for attempts sent at the same moment.
      await lockAndCheckLimits(tx, limits, '卡密兑换')
      const card =
        'cardId' in input
          ? await tx.card.findFirst({ where: { id: input.cardId, holderId: userId }, select: STATE_SELECT })
          : await findByKey(tx, input.cardKey)
      const result = card ? await claim(tx, card.id, userId) : null
      if (result) return { result }
      const latest = card ? await tx.card.findUnique({ where: { id: card.id }, select: STATE_SELECT }) : null
      const error = refusal(latest, userId)
      // Only what looks like guessing counts: an unknown or invalid key, not a lost race.
      if (error.code === 'NOT_FOUND' || latest?.status === 'FAIL') await countFailure(tx, limits)
      return { error }
    }, REDEEM_TX),
  )
  if (outcome.error) throw outcome.error
  return outcome.result
}

/** A ready card wins over failed or pending duplicates of the same key. */
async function findByKey(tx: Tx, cardKey: string): Promise<CardState | null> {
  // No ORDER BY/LIMIT here: with them the planner may walk the primary key instead of
  // the keyHash index. A key has only a handful of cards.
  const matches = await tx.card.findMany({ where: { keyHash: hashKey(cardKey) }, select: STATE_SELECT })
  const rank = (c: CardState) => (c.status === 'SUCCESS' ? 0 : c.status === 'PENDING' ? 1 : 2)
  return matches.sort((a, b) => rank(a) - rank(b) || a.id - b.id)[0] ?? null
}
