import { hash, verify } from '@node-rs/argon2'
import { z } from '@/lib/zod'

/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane (about 80 ms here). */
const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

/**
 * Each hash takes 19 MiB; a burst of logins must not take the server's memory with it.
 * The slots are per process (on globalThis: Next.js gives each route its own modules).
 */
const MAX_CONCURRENT_HASHES = 4
const slots = ((globalThis as unknown as { aiimgHashSlots?: { running: number; waiting: Array<() => void> } }).aiimgHashSlots ??= { running: 0, waiting: [] })

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots.running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => slots.waiting.push(resolve))
  slots.running++
  try {
    return await work()
  } finally {
    slots.running--
    slots.waiting.shift()?.()
  }
}

export const ZPasswordSchema = z
  .string({ error: '请输入密码' })
  .min(8, '密码至少 8 位')
  .max(128, '密码最多 128 位')

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => hash(password, ARGON2_OPTIONS))
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return withHashSlot(() => verify(passwordHash, password).catch(() => false))
}

let dummyHash: Promise<string> | undefined
/** Spends the same time as a real check, so an unknown username is not told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-but-same-cost')
  await verifyPassword(await dummyHash, password)
}
