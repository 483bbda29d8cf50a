// The per-process cache of signed-in users (lib/auth/session-cache.ts), switched on as in
// production: a cached user costs no query, and every change that matters to a session
// still takes effect on the next request: at once for a change made by this process, on
// the database's notification for one made elsewhere.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import * as userRoute from '@/app/api/admin/user/[id]/route'
import * as logoutRoute from '@/app/api/auth/logout/route'
import * as profileRoute from '@/app/api/users/profile/route'
import * as adminTasksRoute from '@/app/api/admin/tasks/route'
import { forgetSessionUser, sessionCacheActive, stopSessionCache } from '@/lib/auth/session-cache'
import { callRoute, createUser } from '../helpers/call-route'
import { until } from '../helpers/until'

process.env.SESSION_CACHE_SECONDS = '10'
let elsewhere: pg.Client

beforeAll(async () => {
  elsewhere = new pg.Client({ connectionString: inject('databaseUrl') })
  await elsewhere.connect()
  // The first signed-in request starts the listener; the cache is used once it listens.
  const user = await createUser()
  await callRoute(profileRoute.GET, { token: user.token })
  await until(() => sessionCacheActive())
})

afterAll(async () => {
  await stopSessionCache()
  await elsewhere.end()
  delete process.env.SESSION_CACHE_SECONDS
})

const adminTasks = (token: string) => callRoute(adminTasksRoute.GET, { token }).then((r) => r.status)

describe('the session cache', () => {
  it('serves a cached user without reading the row again', async () => {
    const user = await createUser()
    expect(await adminTasks(user.token)).toBe(403)
    // Made ADMIN with the triggers off (no notification): the cached USER still answers,
    // which only a cache can do; once forgotten, the row is read again.
    await elsewhere.query('BEGIN')
    await elsewhere.query('SET LOCAL session_replication_role = replica')
    await elsewhere.query(`UPDATE "User" SET role = 'ADMIN' WHERE id = $1`, [user.id])
    await elsewhere.query('COMMIT')
    expect(await adminTasks(user.token)).toBe(403)
    forgetSessionUser(user.id)
    expect(await adminTasks(user.token)).toBe(200)
  })

  it('refuses an admin demoted by this process on the very next request', async () => {
    const boss = await createUser({ role: 'ADMIN' })
    const second = await createUser({ role: 'ADMIN' })
    expect(await adminTasks(second.token)).toBe(200)
    const demoted = await callRoute(userRoute.PATCH, { token: boss.token, params: { id: second.id }, method: 'PATCH', body: { role: 'USER' } })
    expect(demoted.status).toBe(200)
    expect(await adminTasks(second.token)).toBe(401)
  })

  it('refuses a user banned, demoted or signed out by another process once the notification arrives', async () => {
    for (const change of [
      `UPDATE "User" SET "bannedAt" = now() WHERE id = $1`,
      `UPDATE "User" SET role = 'USER' WHERE id = $1`,
      `UPDATE "User" SET "tokenVersion" = "tokenVersion" + 1 WHERE id = $1`,
    ]) {
      const admin = await createUser({ role: 'ADMIN' })
      expect(await adminTasks(admin.token)).toBe(200)
      await elsewhere.query(change, [admin.id])
      const ms = await until(async () => (await adminTasks(admin.token)) !== 200)
      console.log(`[figure] session cache: change made elsewhere refused after ${ms.toFixed(1)} ms (${change.split(' SET ')[1]!.split(' WHERE')[0]})`)
    }
  })

  it('ends the session on logout at once', async () => {
    const user = await createUser()
    expect((await callRoute(profileRoute.GET, { token: user.token })).status).toBe(200)
    expect((await callRoute(logoutRoute.POST, { token: user.token, method: 'POST' })).status).toBe(200)
    expect((await callRoute(profileRoute.GET, { token: user.token })).status).toBe(401)
  })

  it('leaves points moves silent: they never empty the cache', async () => {
    const user = await createUser()
    await elsewhere.query('LISTEN aiimg_session_users')
    const heard: string[] = []
    elsewhere.on('notification', (m) => heard.push(m.payload ?? ''))
    await elsewhere.query(`UPDATE "User" SET points = points + 5 WHERE id = $1`, [user.id])
    await elsewhere.query(`UPDATE "User" SET name = 'renamed' WHERE id = $1`, [user.id])
    await until(() => heard.length > 0)
    expect(heard).toEqual([user.id])
    await elsewhere.query('UNLISTEN aiimg_session_users')
  })
})
