// A password reset or a new account from the console is refused before the slow hash when it
// would be refused anyway: the hash slots are shared with every sign-in of the process, so
// requests that end in 403, 404 or 409 must not hold them.
import { afterEach, expect, it, vi } from 'vitest'
import * as adminUser from '@/app/api/admin/user/route'
import * as adminUserItem from '@/app/api/admin/user/[id]/route'
import { callRoute, createUser } from '../helpers/call-route'

const hashes = vi.hoisted(() => ({ count: 0 }))
vi.mock('@/lib/auth/password', async (original) => {
  const real = await original<typeof import('@/lib/auth/password')>()
  return {
    ...real,
    hashPassword: async (password: string) => {
      hashes.count++
      return real.hashPassword(password)
    },
  }
})
afterEach(() => {
  hashes.count = 0
})

it('a MANAGER resetting an ADMIN, an unknown id or a common password: refused without hashing; a USER of theirs is hashed once', async () => {
  const manager = await createUser({ role: 'MANAGER' })
  const admin = await createUser({ role: 'ADMIN' })
  const user = await createUser()
  hashes.count = 0 // the accounts above were made with hashes of their own
  const reset = (id: string, password: string) => callRoute(adminUserItem.PATCH, { method: 'PATCH', token: manager.token, params: { id }, body: { password } })
  expect((await reset(admin.id, 'a-long-new-password-1')).status).toBe(403)
  expect((await reset('c000000000000000000000000', 'a-long-new-password-1')).status).toBe(404)
  expect((await reset(user.id, '12345678')).status).toBe(400)
  expect(hashes.count).toBe(0)
  expect((await reset(user.id, 'a-long-new-password-1')).status).toBe(200)
  expect(hashes.count).toBe(1)
})

it('a new account under a taken username is refused without hashing', async () => {
  const admin = await createUser({ role: 'ADMIN' })
  const taken = await createUser()
  hashes.count = 0
  const res = await callRoute(adminUser.POST, {
    token: admin.token,
    body: { username: taken.username, name: '重名', role: 'USER', password: 'a-long-new-password-1' },
  })
  expect(res.status).toBe(409)
  expect(hashes.count).toBe(0)
})
