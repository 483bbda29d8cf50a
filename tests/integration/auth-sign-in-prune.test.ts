// The worker's clean-up of sign-in records: only what can no longer be used goes.
import { expect, it } from 'vitest'
import { pruneSignInRecords } from '@/lib/auth/prune-sign-in-records'
import { db } from '@/lib/db'

const ago = (ms: number) => new Date(Date.now() - ms)
const HOUR = 60 * 60 * 1000

it('deletes states and tickets an hour after expiry and SMS codes a day after, nothing younger', async () => {
  await db().oAuthState.createMany({
    data: [
      { state: 'old', purpose: 'login', expiresAt: ago(2 * HOUR) },
      { state: 'recent', purpose: 'login', expiresAt: ago(10 * 60 * 1000) },
      { state: 'live', purpose: 'login', expiresAt: ago(-HOUR) },
    ],
  })
  await db().loginTicket.createMany({
    data: [
      { id: 'old-ticket', expiresAt: ago(2 * HOUR) },
      { id: 'live-ticket', expiresAt: ago(-60_000) },
    ],
  })
  await db().smsCode.createMany({
    data: [
      { mobile: '13800000000', purpose: 'login', codeHash: 'x', expiresAt: ago(25 * HOUR) },
      { mobile: '13800000000', purpose: 'login', codeHash: 'y', expiresAt: ago(2 * HOUR) },
    ],
  })

  expect(await pruneSignInRecords()).toEqual({ states: 1, tickets: 1, codes: 1 })
  expect((await db().oAuthState.findMany({ orderBy: { state: 'asc' } })).map((s) => s.state)).toEqual(['live', 'recent'])
  expect((await db().loginTicket.findMany()).map((t) => t.id)).toEqual(['live-ticket'])
  expect((await db().smsCode.findMany()).map((c) => c.codeHash)).toEqual(['y'])
})
