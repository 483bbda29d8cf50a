// The first start’s administrator (and demo models) when several web processes start at once on
// one empty database: exactly one is created, and every process agrees.
import { expect, it } from 'vitest'
import { verifyPassword } from '@/lib/auth/password'
import { db } from '@/lib/db'
import { DEMO_STEP_MS } from '@/lib/generation/backends/demo'
import { ensureAdmin, ensureDemoModel } from '@/lib/users/ensure-admin'
import { only } from '../helpers/present'

it('two processes starting together create one ADMIN; the other reports none created', async () => {
  const results = await Promise.all([ensureAdmin(db(), 'Admin', undefined), ensureAdmin(db(), 'Admin', undefined), ensureAdmin(db(), 'Admin', undefined)])
  const created = results.filter((r) => r.created)
  expect(created).toHaveLength(1)
  expect(results.filter((r) => !r.created)).toHaveLength(2)

  const admins = await db().user.findMany({ where: { role: 'ADMIN' } })
  expect(admins).toHaveLength(1)
  const admin = only(admins)
  expect(admin.username).toBe('admin')
  // The password printed is the one that works.
  const winner = only(created)
  const printed = winner.created ? winner.generatedPassword! : ''
  expect(await verifyPassword(admin.passwordHash!, printed)).toBe(true)

  // Later starts change nothing.
  expect(await ensureAdmin(db(), 'admin', 'another-password-1')).toEqual({ created: false })
  expect(await db().user.count({ where: { role: 'ADMIN' } })).toBe(1)
})

it('two processes starting together add the demo models once: one for pictures, one for clips', async () => {
  const added = await Promise.all([ensureDemoModel(db()), ensureDemoModel(db()), ensureDemoModel(db())])
  expect(added.filter(Boolean)).toHaveLength(1)
  expect(await db().aiModel.count({ where: { backend: 'demo' } })).toBe(2)
  // Slow enough to watch: a page shows it queued, submitted and generating before the picture.
  expect((await db().aiModel.findFirstOrThrow({ where: { backend: 'demo', type: 'STABLE_DIFFUSION' } })).options).toEqual({ stepMs: DEMO_STEP_MS })
  expect(await db().aiModel.findFirstOrThrow({ where: { backend: 'demo', type: 'VIDEO' } })).toMatchObject({
    name: '演示视频',
    prices: { VIDEO_TEXT2VIDEO: 1, VIDEO_IMG2VIDEO: 1 },
  })

  // The operator deletes them (no real backend yet): the next start does not bring them back.
  await db().aiModel.deleteMany({ where: { backend: 'demo' } })
  expect(await ensureDemoModel(db())).toBe(false)
  expect(await db().aiModel.count()).toBe(0)
})
