// Shared by the cards-* integration tests: importing keys through the API, running the
// background check to the end, and finding cards by their key.
import { expect } from 'vitest'
import * as importRoute from '@/app/api/admin/cards/batch_import/route'
import { hashKey, maskKey, sealKey } from '@/lib/cards/card-key'
import { checkPendingCards } from '@/lib/cards/check-pending-cards'
import { db } from '@/lib/db'
import { callRoute } from './call-route'
import { expectOk } from './expect-response'
import { at } from './present'

type Actor = { token: string }

/** POST /api/admin/cards/batch_import as `admin`; expects success and returns {batchId, count}. */
export async function importKeys(
  admin: Actor,
  cards: string[],
  extra: { points?: number; note?: string; expiresAt?: string } = {},
): Promise<{ batchId: number; count: number }> {
  return expectOk(await callRoute(importRoute.POST, { token: admin.token, body: { cards, ...extra }, ip: '10.1.1.1' }))
}

/** Runs the background check until it says there is nothing more to do; returns the rounds. */
export async function settleCards(): Promise<number> {
  let rounds = 1
  while (await checkPendingCards()) rounds++
  return rounds
}

/** Every card stored for a key (any status), oldest first. */
export const cardsWithKey = (key: string) => db().card.findMany({ where: { keyHash: hashKey(key) }, orderBy: { id: 'asc' } })

type CardWithKey = Awaited<ReturnType<typeof cardsWithKey>>[number] & { key: string }
/** One card per key, in the keys' order: a tuple of keys (from freshKeys(1–4) or `[key]`) gives a tuple. */
type CardsFor<K extends readonly string[]> = { -readonly [I in keyof K]: CardWithKey }

/** Imports keys and settles them: every key ready (the caller passes distinct, new keys). */
export async function readyCards<const K extends readonly string[]>(admin: Actor, keys: K, extra: Parameters<typeof importKeys>[2] = {}): Promise<CardsFor<K>> {
  const { batchId } = await importKeys(admin, [...keys], extra)
  await settleCards()
  const cards = await db().card.findMany({ where: { batchId }, orderBy: { id: 'asc' } })
  expect(cards.map((c) => c.status)).toEqual(keys.map(() => 'SUCCESS'))
  return cards.map((card, i) => ({ ...card, key: at(keys, i) })) as CardsFor<K>
}

let keyCounter = 0
/** Distinct, well-formed keys no other test uses; a small literal count gives a tuple to destructure. */
export function freshKeys(n: 1, prefix?: string): [string]
export function freshKeys(n: 2, prefix?: string): [string, string]
export function freshKeys(n: 3, prefix?: string): [string, string, string]
export function freshKeys(n: 4, prefix?: string): [string, string, string, string]
export function freshKeys(n: number, prefix?: string): string[]
export function freshKeys(n: number, prefix = 'K'): string[] {
  return Array.from({ length: n }, () => `${prefix}${process.pid.toString(36).toUpperCase()}X${(keyCounter++).toString(36).toUpperCase().padStart(6, '0')}`)
}

/**
 * Writes cards straight into the tables, as an earlier version of the app or a process
 * that died after its import committed would have left them: no request, no audit, no
 * NOTIFY. Returns the cards (oldest first) with their keys.
 */
export async function insertCards<const K extends readonly string[]>(
  keys: K,
  options: { status: 'PENDING' | 'SUCCESS'; points?: number },
): Promise<CardsFor<K>> {
  const points = options.points ?? 10
  const batch = await db().cardBatch.create({ data: { points, count: keys.length } })
  await db().card.createMany({
    data: keys.map((key) => ({ keyHash: hashKey(key), cardKeyEnc: sealKey(key), keyMask: maskKey(key), points, batchId: batch.id, status: options.status })),
  })
  const cards = await db().card.findMany({ where: { batchId: batch.id }, orderBy: { id: 'asc' } })
  return cards.map((card, i) => ({ ...card, key: at(keys, i) })) as CardsFor<K>
}
