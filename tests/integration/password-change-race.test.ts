// POST /api/users/password racing a sign-out everywhere or an admin's reset: the change is
// written only over the password and sign-in state it checked, so the other one wins.
import { describe, expect, it, vi } from 'vitest'
import * as password from '@/app/api/users/password/route'
import * as logout from '@/app/api/auth/logout/route'
import { verifyPassword } from '@/lib/auth/password'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'

/** Runs while the current password is being checked (between the read and the write). */
let duringCheck: () => Promise<void> = async () => {}

vi.mock('@/lib/auth/password', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/auth/password')>()
  return {
    ...real,
    verifyPassword: async (hash: string, pw: string) => {
      const right = await real.verifyPassword(hash, pw)
      await duringCheck()
      return right
    },
  }
})

const change = (token: string) => callRoute(password.POST, { token, body: { currentPassword: 'old-password-1', newPassword: 'thief-password-9' } })

describe('a password change racing another change to the account', () => {
  it('a sign-out everywhere during the check: refused with 409, no new token, the password kept', async () => {
    const user = await createUser({ password: 'old-password-1' })
    duringCheck = async () => {
      duringCheck = async () => {}
      expect((await callRoute(logout.POST, { token: user.token })).status).toBe(200)
    }
    const res = await change(user.token)
    expect([res.status, res.body.errMessage]).toEqual([409, '账号的密码或登录状态刚刚发生了变化，请重新登录后再试'])
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } })
    expect(await verifyPassword(row.passwordHash!, 'old-password-1')).toBe(true)
  })

  it("an admin's reset during the check: the admin's password stands", async () => {
    const user = await createUser({ password: 'old-password-1' })
    const { hashPassword } = await vi.importActual<typeof import('@/lib/auth/password')>('@/lib/auth/password')
    const adminHash = await hashPassword('admin-set-password-2')
    duringCheck = async () => {
      duringCheck = async () => {}
      await db().user.update({ where: { id: user.id }, data: { passwordHash: adminHash, tokenVersion: { increment: 1 } } })
    }
    expect((await change(user.token)).status).toBe(409)
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(adminHash)
  })

  it('without a race the change goes through and returns a working token', async () => {
    const user = await createUser({ password: 'old-password-1' })
    const res = await change(user.token)
    expect(res.status, res.body.errMessage).toBe(200)
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } })
    expect(await verifyPassword(row.passwordHash!, 'thief-password-9')).toBe(true)
  })
})
