import { hash, verify } from '@node-rs/argon2'
import { nodeEnv } from '@/lib/env'
import { serviceUnavailable } from '@/lib/http/app-error'
import { z } from '@/lib/zod'

export type HashCost = { memoryCost: number; timeCost: number; parallelism: number }

/**
 * argon2id at 64 MiB and 7 passes, 1 lane: about 100 ms per hash on the 2-core reference
 * server (`npm run bench:password`). More than OWASP's minimum because a leaked table must
 * stay expensive to guess through; the per-process hash slots below bound the memory.
 */
export const PASSWORD_HASH_COST: HashCost = { memoryCost: 65536, timeCost: 7, parallelism: 1 }

/**
 * Test runs only (NODE_ENV=test, which vitest sets and `npm start` never does): the
 * suites hash thousands of passwords. Hashes made with it would be rehashed by a
 * production login anyway (needsRehash).
 */
const TEST_HASH_COST: HashCost = { memoryCost: 1024, timeCost: 1, parallelism: 1 }

export function currentHashCost(): HashCost {
  return nodeEnv() === 'test' ? TEST_HASH_COST : PASSWORD_HASH_COST
}

const ARGON2ID = 2
const ARGON2_VERSION = 19

/**
 * Each hash takes 64 MiB; a burst of logins must not take the server's memory with it
 * (4 at once: 256 MiB). The slots are per process (on globalThis: Next.js gives each
 * route its own modules). The line behind them is bounded too: at about 20 hashes a second,
 * 64 waiting is 3 s of work, and a flood of sign-ins from many addresses (each under its
 * own throttle) would otherwise make every later sign-in wait out the whole flood.
 */
const MAX_CONCURRENT_HASHES = 4
export const MAX_WAITING_HASHES = 64
export const HASHING_BUSY = '系统繁忙，请稍后再试'
const slots = ((globalThis as unknown as { aiimgHashSlots?: { running: number; waiting: Array<() => void> } }).aiimgHashSlots ??= { running: 0, waiting: [] })

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots.running >= MAX_CONCURRENT_HASHES) {
    if (slots.waiting.length >= MAX_WAITING_HASHES) throw serviceUnavailable(HASHING_BUSY)
    await new Promise<void>((resolve) => slots.waiting.push(resolve))
  }
  slots.running++
  try {
    return await work()
  } finally {
    slots.running--
    slots.waiting.shift()?.()
  }
}

export const ZPasswordSchema = z.string({ error: '请输入密码' }).min(8, '密码至少 8 位').max(128, '密码最多 128 位')

export function hashPassword(password: string, cost: HashCost = currentHashCost()): Promise<string> {
  return withHashSlot(() => hash(password, { algorithm: ARGON2ID, ...cost }))
}

/** Checks against any stored hash: its own parameters are in the PHC string ($argon2id$v=19$m=…,t=…,p=…$…). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return withHashSlot(() => verify(passwordHash, password).catch(() => false))
}

/** True when a stored hash is weaker than what hashPassword makes today: store it again after a successful login. */
export function needsRehash(passwordHash: string, cost: HashCost = currentHashCost()): boolean {
  const phc = /^\$(argon2(?:id|i|d))\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash)
  if (!phc) return false
  const [, algorithm, version, memoryCost, timeCost] = phc
  return algorithm !== 'argon2id' || Number(version) < ARGON2_VERSION || Number(memoryCost) < cost.memoryCost || Number(timeCost) < cost.timeCost
}

const dummyHashes = new Map<string, Promise<string>>()
/** Spends the same time as a real check, so an unknown username is not told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  const cost = currentHashCost()
  const key = JSON.stringify(cost)
  if (!dummyHashes.has(key)) {
    const made = hashPassword('not-a-real-password-but-same-cost', cost)
    // Made while every hash slot was taken: refused this time, made again by the next check.
    made.catch(() => dummyHashes.delete(key))
    dummyHashes.set(key, made)
  }
  await verifyPassword(await dummyHashes.get(key)!, password)
}
