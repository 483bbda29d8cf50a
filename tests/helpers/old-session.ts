import { vi } from 'vitest'
import { issueToken } from '@/lib/auth/token'

/** A valid token of `user` issued `minutes` ago: a session signed in that long before (as a stolen one usually was). */
export async function tokenSignedInAgo(user: { id: string; tokenVersion: number }, minutes: number): Promise<string> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - minutes * 60_000 })
  try {
    return await issueToken(user.id, user.tokenVersion)
  } finally {
    vi.useRealTimers()
  }
}
