// A deadlock is PostgreSQL ending one transaction so the other can go on: nothing of it was
// written, so the request answers 503 系统繁忙 (try again), not 500 系统错误.
import { expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { errorToResponse } from '@/lib/http/envelope'
import { createUser } from '../helpers/call-route'

it('the transaction PostgreSQL picks as the deadlock victim answers 503, and the other commits', async () => {
  const [a, b] = [await createUser(), await createUser()]
  let bothHold!: () => void
  const bothHoldOne = new Promise<void>((resolve) => (bothHold = resolve))
  let holding = 0
  const lockInOrder = (first: string, second: string) =>
    db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${first} FOR UPDATE`
        if (++holding === 2) bothHold()
        await bothHoldOne
        await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${second} FOR UPDATE`
      },
      { timeout: 10_000 },
    )
  const outcomes = await Promise.allSettled([lockInOrder(a.id, b.id), lockInOrder(b.id, a.id)])
  expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
  const victim = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  try {
    const response = errorToResponse(victim.reason)
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', errMessage: '系统繁忙，请稍后再试' })
  } finally {
    warn.mockRestore()
  }
})
