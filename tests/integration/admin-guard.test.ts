// Role checks: every admin route (found on disk, so a new one cannot ship unguarded) and the
// console routes refuse anonymous callers (401) and plain users (403); what a MANAGER may do.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import * as cardAssign from '@/app/api/admin/cards/[id]/assign/route'
import * as cardDisable from '@/app/api/admin/cards/[id]/disable/route'
import * as cardImport from '@/app/api/admin/cards/batch_import/route'
import * as cardExport from '@/app/api/admin/cards/export/route'
import * as cardList from '@/app/api/admin/cards/route'
import * as userAdjust from '@/app/api/admin/user/[id]/adjust/route'
import * as adminUser from '@/app/api/admin/user/route'
import * as adminUserItem from '@/app/api/admin/user/[id]/route'
import * as users from '@/app/api/users/route'
import * as siteConfig from '@/app/api/site-config/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { callRoute, createUser, type CallOptions } from '../helpers/call-route'
import { readyCards } from '../helpers/cards-fixtures'
import { expectFail, expectOk } from '../helpers/expect-response'
import { at } from '../helpers/present'

const ROOT = path.resolve(import.meta.dirname, '../..')
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

type Handler = Parameters<typeof callRoute>[0]
type Endpoint = { label: string; handler: Handler; method: string; params: Record<string, string> }

/** Every route.ts under app/api/admin, relative to the project root. */
function adminRouteFiles(): string[] {
  const dir = path.join(ROOT, 'app/api/admin')
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => path.basename(f) === 'route.ts')
    .map((f) => path.join('app/api/admin', f))
    .sort()
}

/** A placeholder for every dynamic segment ([id], [...slug]) of a route file's path. */
function placeholderParams(file: string): Record<string, string> {
  const params: Record<string, string> = {}
  for (const match of file.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)) params[at(match, 1)] = 'guard-test-id'
  return params
}

async function endpointsOf(file: string): Promise<Endpoint[]> {
  const mod = (await import(path.join(ROOT, file))) as Record<string, unknown>
  const urlPath = '/' + path.dirname(file).replace(/^app\//, '')
  return HTTP_METHODS.filter((m) => typeof mod[m] === 'function').map((method) => ({
    label: `${method} ${urlPath}`,
    handler: mod[method] as Handler,
    method,
    params: placeholderParams(file),
  }))
}

/** The console routes outside /api/admin that are also for ADMIN and MANAGER only. */
const CONSOLE_ENDPOINTS: Endpoint[] = [
  { label: 'GET /api/users', handler: users.GET, method: 'GET', params: {} },
  { label: 'GET /api/site-config', handler: siteConfig.GET, method: 'GET', params: {} },
  { label: 'PATCH /api/site-config/[name]', handler: siteConfigItem.PATCH, method: 'PATCH', params: { name: 'name' } },
]

function call(endpoint: Endpoint, token?: string) {
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(endpoint.method)
  const options: CallOptions = { method: endpoint.method, params: endpoint.params, token }
  // A plausible body, so that nothing but the role check can be what refuses the call.
  if (hasBody) options.body = { value: 'x', username: 'guard_probe', name: 'x', password: 'guard-probe-pass', role: 'USER' }
  return callRoute(endpoint.handler, options)
}

const files = adminRouteFiles()
const adminEndpoints = (await Promise.all(files.map(endpointsOf))).flat()
const guarded = [...adminEndpoints, ...CONSOLE_ENDPOINTS]

describe('every admin and console route', () => {
  let userToken: string
  beforeAll(async () => {
    userToken = (await createUser({ username: 'guard_plain_user' })).token
  })

  it('finds the admin routes on disk, each exporting at least one HTTP method', async () => {
    expect(files).toEqual(expect.arrayContaining(['app/api/admin/user/route.ts', 'app/api/admin/user/[id]/route.ts']))
    for (const file of files) expect((await endpointsOf(file)).length, file).toBeGreaterThan(0)
    expect(adminEndpoints.map((e) => e.label)).toEqual(
      expect.arrayContaining(['POST /api/admin/user', 'PATCH /api/admin/user/[id]', 'DELETE /api/admin/user/[id]']),
    )
  })

  it.each(guarded.map((e) => [e.label, e] as const))('%s: 401 without a token', async (_label, endpoint) => {
    expectFail(await call(endpoint), 401, '请先登录')
  })

  it.each(guarded.map((e) => [e.label, e] as const))('%s: 403 with a USER token', async (_label, endpoint) => {
    expectFail(await call(endpoint, userToken), 403)
  })

  it('wrote nothing while refusing', async () => {
    expect(await db().user.count({ where: { username: 'guard_probe' } })).toBe(0)
    expect(await db().adminAuditLog.count()).toBe(0)
    expect(await db().siteConfig.count()).toBe(0)
  })
})

describe('roles are read from the database on every request', () => {
  it('a role given or taken away takes effect at once, with the same token', async () => {
    const user = await createUser({ username: 'guard_role_flip' })
    expectFail(await callRoute(users.GET, { token: user.token }), 403)
    await db().user.update({ where: { id: user.id }, data: { role: 'MANAGER' } })
    expectOk(await callRoute(users.GET, { token: user.token }))
    await db().user.update({ where: { id: user.id }, data: { role: 'USER' } })
    expectFail(await callRoute(users.GET, { token: user.token }), 403)
  })
})

describe('what a MANAGER may do', () => {
  let manager: Awaited<ReturnType<typeof createUser>>
  let admin: Awaited<ReturnType<typeof createUser>>
  beforeAll(async () => {
    manager = await createUser({ role: 'MANAGER', username: 'guard_manager' })
    admin = await createUser({ role: 'ADMIN', username: 'guard_admin' })
  })

  const createAs = (token: string, body: Record<string, unknown>) =>
    callRoute(adminUser.POST, { token, body: { name: '新用户', password: 'created-by-manager', ...body } })
  const patchAs = (token: string, id: string, body: unknown) => callRoute(adminUserItem.PATCH, { method: 'PATCH', token, params: { id }, body })
  const deleteAs = (token: string, id: string) => callRoute(adminUserItem.DELETE, { method: 'DELETE', token, params: { id } })
  const rowOf = (id: string) => db().user.findUniqueOrThrow({ where: { id } })

  it('can list users and read the site config', async () => {
    const list = expectOk(await callRoute(users.GET, { token: manager.token }))
    expect(list.total).toBeGreaterThanOrEqual(2)
    const config = expectOk(await callRoute(siteConfig.GET, { token: manager.token }))
    expect(config.items.map((i: { name: string }) => i.name)).toContain('name')
  })

  it('cannot change the site config (403) and nothing is written', async () => {
    const res = await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: manager.token, params: { name: 'name' }, body: { value: '经理改的名字' } })
    expectFail(res, 403, '没有权限')
    expect(await db().siteConfig.findUnique({ where: { name: 'name' } })).toBeNull()
  })

  it.each(['ADMIN', 'MANAGER'])('cannot create a %s', async (role) => {
    const username = `guard_new_${role.toLowerCase()}`
    expectFail(await createAs(manager.token, { username, role }), 403, '没有权限创建该角色的用户')
    expect(await db().user.findUnique({ where: { username } })).toBeNull()
  })

  it('can create a USER (audited as the manager)', async () => {
    const created = expectOk(await createAs(manager.token, { username: 'guard_made_by_mgr', role: 'USER' }))
    expect(created).toMatchObject({ username: 'guard_made_by_mgr', role: 'USER' })
    const audit = await db().adminAuditLog.findFirstOrThrow({ where: { action: 'user.create', targetId: created.id } })
    expect(audit).toMatchObject({ actorId: manager.id, actorRole: 'MANAGER' })
  })

  it('can edit a USER (name, mobile, ban)', async () => {
    const target = await createUser({ username: 'guard_edit_me' })
    const edited = expectOk(await patchAs(manager.token, target.id, { name: '改过的名字', mobile: '13900000001' }))
    expect(edited).toMatchObject({ name: '改过的名字', mobile: '13900000001', role: 'USER' })
    expect(await rowOf(target.id)).toMatchObject({ name: '改过的名字', mobile: '13900000001' })
    expectOk(await patchAs(manager.token, target.id, { banned: true }))
    expect((await rowOf(target.id)).bannedAt).not.toBeNull()
  })

  it("cannot change anyone's role", async () => {
    const target = await createUser({ username: 'guard_promote_me' })
    for (const role of ['MANAGER', 'ADMIN']) {
      expectFail(await patchAs(manager.token, target.id, { role }), 403, '没有权限设置该角色')
    }
    expect(await rowOf(target.id)).toMatchObject({ role: 'USER', tokenVersion: target.tokenVersion })
  })

  it('cannot edit or delete an ADMIN, another MANAGER or themself', async () => {
    const otherManager = await createUser({ role: 'MANAGER', username: 'guard_manager2' })
    for (const target of [admin, otherManager, manager]) {
      expectFail(await patchAs(manager.token, target.id, { name: '被经理改了' }), 403, '没有权限修改该用户')
      expectFail(await patchAs(manager.token, target.id, { banned: true }), 403, '没有权限修改该用户')
      expect(await rowOf(target.id)).toMatchObject({ name: target.name, bannedAt: null, role: target.role })
    }
    for (const target of [admin, otherManager]) {
      expectFail(await deleteAs(manager.token, target.id), 403, '没有权限删除该用户')
      expect(await db().user.findUnique({ where: { id: target.id } })).not.toBeNull()
    }
  })

  it('can delete a USER', async () => {
    const target = await createUser({ username: 'guard_delete_me' })
    expect(expectOk(await deleteAs(manager.token, target.id))).toEqual({ id: target.id })
    expect(await db().user.findUnique({ where: { id: target.id } })).toBeNull()
  })

  describe('cards and balances: whatever issues value or hands out full keys is for ADMIN only', () => {
    let card: Awaited<ReturnType<typeof readyCards>>[number]
    let target: Awaited<ReturnType<typeof createUser>>
    beforeAll(async () => {
      ;[card] = await readyCards(admin, ['GUARD-MANAGER-CARD-1'])
      target = await createUser({ username: 'guard_card_target' })
    })

    // Each call is well formed and would succeed for an ADMIN: only the role can refuse it.
    const refused: Array<[string, () => ReturnType<typeof callRoute>]> = [
      [
        'POST /api/admin/cards/batch_import (with the largest points override)',
        () => callRoute(cardImport.POST, { token: manager.token, body: { cards: ['GUARD-MGR-NEW-KEY'], points: 1_000_000 } }),
      ],
      [
        'POST /api/admin/cards/[id]/assign',
        () => callRoute(cardAssign.POST, { token: manager.token, params: { id: String(card.id) }, body: { userId: target.id } }),
      ],
      ['GET /api/admin/cards/export', () => callRoute(cardExport.GET, { token: manager.token })],
      [
        'POST /api/admin/user/[id]/adjust',
        () =>
          callRoute(userAdjust.POST, {
            token: manager.token,
            params: { id: target.id },
            body: { points: 5, reason: '经理', requestId: '0b6c1a52-3f0e-4c1e-9a51-6f1f3a0c2d7e' },
          }),
      ],
    ]

    it.each(refused)('%s: 403 for a MANAGER, and nothing is written', async (_label, call) => {
      const before = {
        cards: await db().card.count(),
        batches: await db().cardBatch.count(),
        audits: await db().adminAuditLog.count(),
        ledger: await db().ledgerEntry.count(),
      }
      expectFail(await call(), 403, '没有权限')
      expect({
        cards: await db().card.count(),
        batches: await db().cardBatch.count(),
        audits: await db().adminAuditLog.count(),
        ledger: await db().ledgerEntry.count(),
      }).toEqual(before)
      expect(await db().card.findUniqueOrThrow({ where: { id: card.id } })).toMatchObject({ holderId: null, usedAt: null })
      expect(await db().user.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ points: 0, balance: 0 })
    })

    it('the same calls succeed for an ADMIN (so the role is what refused them)', async () => {
      expectOk(await callRoute(cardImport.POST, { token: admin.token, body: { cards: ['GUARD-ADMIN-NEW-KEY'], points: 7 } }))
      expectOk(await callRoute(cardAssign.POST, { token: admin.token, params: { id: String(card.id) }, body: { userId: target.id } }))
    })

    it('a MANAGER may still list and disable cards (audited as the manager), but enabling one again is for ADMIN', async () => {
      const [spare] = await readyCards(admin, ['GUARD-MANAGER-CARD-2'])
      expect(expectOk(await callRoute(cardList.GET, { token: manager.token })).total).toBeGreaterThanOrEqual(2)
      const toggle = (token: string, disabled: boolean) => callRoute(cardDisable.POST, { token, params: { id: String(spare.id) }, body: { disabled } })
      expect(expectOk(await toggle(manager.token, true)).disabledAt).not.toBeNull()
      expectFail(await toggle(manager.token, false), 403, '只有管理员可以重新启用卡密')
      expect(expectOk(await toggle(admin.token, false)).disabledAt).toBeNull()
      const audits = await db().adminAuditLog.findMany({ where: { targetType: 'Card', targetId: String(spare.id) }, orderBy: { id: 'asc' } })
      expect(audits.map((a) => [a.action, a.actorRole])).toEqual([
        ['card.disable', 'MANAGER'],
        ['card.enable', 'ADMIN'],
      ])
    })
  })
})
