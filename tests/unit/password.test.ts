// Password hashing cost: production parameters everywhere but test runs, old hashes keep
// verifying, and weaker stored parameters are recognised for a rehash.
import { hash } from '@node-rs/argon2'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  HASHING_BUSY,
  MAX_WAITING_HASHES,
  PASSWORD_HASH_COST,
  currentHashCost,
  hashPassword,
  needsRehash,
  verifyAgainstDummy,
  verifyPassword,
} from '@/lib/auth/password'

/** What the cost was before it was raised (OWASP's minimum). */
const OLD_COST = { memoryCost: 19456, timeCost: 2, parallelism: 1 }
const params = (phc: string) => /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(phc)?.[1]

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('password hashing cost', () => {
  it('is argon2id at 64 MiB with about 100 ms of passes', () => {
    expect(PASSWORD_HASH_COST).toEqual({ memoryCost: 65536, timeCost: 7, parallelism: 1 })
  })

  it.each(['production', 'development', undefined])('NODE_ENV=%s hashes with the production parameters', async (nodeEnv) => {
    vi.stubEnv('NODE_ENV', nodeEnv)
    expect(currentHashCost()).toBe(PASSWORD_HASH_COST)
    const stored = await hashPassword('a-good-password')
    expect(params(stored)).toBe('m=65536,t=7,p=1')
    expect(await verifyPassword(stored, 'a-good-password')).toBe(true)
    expect(needsRehash(stored)).toBe(false)
  })

  it('only a test run (NODE_ENV=test) hashes cheaply', async () => {
    vi.stubEnv('NODE_ENV', 'test')
    const stored = await hashPassword('a-good-password')
    expect(params(stored)).toBe('m=1024,t=1,p=1')
    expect(await verifyPassword(stored, 'a-good-password')).toBe(true)
    // A test-cost hash reaching production would be replaced at the first login.
    vi.stubEnv('NODE_ENV', 'production')
    expect(needsRehash(stored)).toBe(true)
  })

  it('an unknown NODE_ENV stops instead of choosing a cost', async () => {
    vi.stubEnv('NODE_ENV', 'staging')
    expect(() => currentHashCost()).toThrow()
  })

  it('a hash made with the old parameters still verifies and is marked for a rehash', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    const old = await hash('a-good-password', { algorithm: 2, ...OLD_COST })
    expect(params(old)).toBe('m=19456,t=2,p=1')
    expect(await verifyPassword(old, 'a-good-password')).toBe(true)
    expect(await verifyPassword(old, 'another-password')).toBe(false)
    expect(needsRehash(old)).toBe(true)
  })

  it('rehash: weaker memory, fewer passes, argon2i/argon2d or an older version; not a stronger hash', () => {
    const cost = PASSWORD_HASH_COST
    expect(needsRehash('$argon2id$v=19$m=65536,t=7,p=1$c2FsdHNhbHQ$aGFzaA', cost)).toBe(false)
    expect(needsRehash('$argon2id$v=19$m=131072,t=8,p=2$c2FsdHNhbHQ$aGFzaA', cost)).toBe(false)
    expect(needsRehash('$argon2id$v=19$m=32768,t=7,p=1$c2FsdHNhbHQ$aGFzaA', cost)).toBe(true)
    expect(needsRehash('$argon2id$v=19$m=65536,t=6,p=1$c2FsdHNhbHQ$aGFzaA', cost)).toBe(true)
    expect(needsRehash('$argon2i$v=19$m=65536,t=7,p=1$c2FsdHNhbHQ$aGFzaA', cost)).toBe(true)
    expect(needsRehash('$argon2id$v=16$m=65536,t=7,p=1$c2FsdHNhbHQ$aGFzaA', cost)).toBe(true)
    expect(needsRehash('not-a-phc-string', cost)).toBe(false)
  })

  it('refuses a check at once when the line behind the hash slots is full, and takes the next one once it drains', async () => {
    vi.stubEnv('NODE_ENV', 'test')
    const stored = await hashPassword('a-good-password')
    // 4 run, MAX_WAITING_HASHES wait, the next one is refused before it waits.
    const answers = await Promise.all(
      Array.from({ length: 4 + MAX_WAITING_HASHES + 1 }, () =>
        verifyPassword(stored, 'a-good-password').then(String, (error: Error & { status?: number }) => `${error.status} ${error.message}`),
      ),
    )
    expect(answers.filter((a) => a === 'true')).toHaveLength(4 + MAX_WAITING_HASHES)
    expect(answers.at(-1)).toBe(`503 ${HASHING_BUSY}`)
    expect(await verifyPassword(stored, 'a-good-password')).toBe(true)
  })

  it('the stand-in check for an unknown user, refused while the line is full, works once it drains', async () => {
    // No other test here checks a stand-in, so this process has not made its hash yet.
    vi.stubEnv('NODE_ENV', 'test')
    const stored = await hashPassword('a-good-password')
    const flood = Array.from({ length: 4 + MAX_WAITING_HASHES }, () => verifyPassword(stored, 'a-good-password'))
    const refused = await verifyAgainstDummy('a-guess').then(
      () => 'checked',
      (error: Error) => error.message,
    )
    await Promise.all(flood)
    expect(refused).toBe(HASHING_BUSY)
    await expect(verifyAgainstDummy('a-guess')).resolves.toBeUndefined()
  })
})
