// The console's user management: GET /api/users, POST /api/admin/user, PATCH and DELETE
// /api/admin/user/{id}, their audit records and the last-administrator protection.
import { beforeAll, describe, expect, it } from 'vitest'
import * as login from '@/app/api/auth/login/route'
import * as profile from '@/app/api/users/profile/route'
import * as users from '@/app/api/users/route'
import * as adminUser from '@/app/api/admin/user/route'
import * as adminUserItem from '@/app/api/admin/user/[id]/route'
import * as likeRoute from '@/app/api/wall/[id]/like/route'
import * as favoriteRoute from '@/app/api/wall/[id]/favorite/route'
import * as reportRoute from '@/app/api/wall/[id]/report/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, createTaskRow } from '../helpers/tasks'
import { expectFail, expectOk } from '../helpers/expect-response'
import { first, only } from '../helpers/present'

type TestUser = Awaited<ReturnType<typeof createUser>>

const ADMIN_IP = '10.20.30.40'
const ROW_KEYS = ['agreedTermsAt', 'avatar', 'balance', 'bannedAt', 'createdAt', 'id', 'mobile', 'name', 'oauth', 'points', 'role', 'updatedAt', 'username']

const listUsers = (token: string, query: Record<string, string | number> = {}) => callRoute(users.GET, { token, query })
const createAs = (actor: TestUser, body: Record<string, unknown>) => callRoute(adminUser.POST, { token: actor.token, body, ip: ADMIN_IP })
const patchAs = (actor: TestUser, id: string, body: unknown) =>
  callRoute(adminUserItem.PATCH, { method: 'PATCH', token: actor.token, params: { id }, body, ip: ADMIN_IP })
const deleteAs = (actor: TestUser, id: string) => callRoute(adminUserItem.DELETE, { method: 'DELETE', token: actor.token, params: { id }, ip: ADMIN_IP })

const rowOf = (id: string) => db().user.findUnique({ where: { id } })
const auditsFor = (targetId: string) => db().adminAuditLog.findMany({ where: { targetId }, orderBy: { id: 'asc' } })
const auditCount = () => db().adminAuditLog.count()
const isSignedIn = async (token: string) => (await callRoute(profile.GET, { token })).status === 200

let ipCounter = 0
const loginAs = (username: string, password: string) => callRoute(login.POST, { body: { username, password }, ip: `100.64.0.${++ipCounter}` })

/** Makes `keep` the only ADMINs (others become USERs), so a test controls how many admins exist. */
async function onlyAdmins(...keep: TestUser[]) {
  await db().user.updateMany({ where: { role: 'ADMIN', id: { notIn: keep.map((u) => u.id) } }, data: { role: 'USER' } })
}

let admin: TestUser
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN', username: 'au_root' })
})

describe('GET /api/users', () => {
  const PREFIX = 'pagerow'
  beforeAll(async () => {
    const base = Date.now() - 60_000
    await db().user.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        username: `${PREFIX}${String(i).padStart(2, '0')}`,
        name: `分页用户${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    })
  })

  it('pages newest first with data.list and data.total', async () => {
    const page1 = expectOk(await listUsers(admin.token, { keyword: PREFIX, page: 1, pageSize: 20 }))
    const page2 = expectOk(await listUsers(admin.token, { keyword: PREFIX, page: 2, pageSize: 20 }))
    const page3 = expectOk(await listUsers(admin.token, { keyword: PREFIX, page: 3, pageSize: 20 }))
    expect([page1.total, page2.total, page3.total]).toEqual([25, 25, 25])
    expect(page1.list).toHaveLength(20)
    expect(page2.list).toHaveLength(5)
    expect(page3.list).toEqual([])

    const names = [...page1.list, ...page2.list].map((u: { username: string }) => u.username)
    const expected = Array.from({ length: 25 }, (_, i) => `${PREFIX}${String(24 - i).padStart(2, '0')}`)
    expect(names).toEqual(expected)
  })

  it('defaults to page 1 of 20 and counts everyone without a keyword', async () => {
    const data = expectOk(await listUsers(admin.token))
    expect(data.list).toHaveLength(20)
    expect(data.total).toBe(await db().user.count())
    const small = expectOk(await listUsers(admin.token, { keyword: PREFIX, page: 3, pageSize: 10 }))
    expect(small.list.map((u: { username: string }) => u.username)).toEqual(['pagerow04', 'pagerow03', 'pagerow02', 'pagerow01', 'pagerow00'])
  })

  it('answers rows with the profile fields plus bannedAt and updatedAt, never secrets', async () => {
    const { list } = expectOk(await listUsers(admin.token, { keyword: 'au_root' }))
    expect(list).toHaveLength(1)
    expect(Object.keys(list[0]).sort()).toEqual(ROW_KEYS)
    expect(list[0]).toMatchObject({ id: admin.id, role: 'ADMIN', bannedAt: null, oauth: { hasOpenId: false } })
    expect(JSON.stringify(list)).not.toMatch(/passwordHash|tokenVersion|argon2|wxOpenId/)
  })

  it('searches username (any case), name and mobile', async () => {
    const target = await createUser({ username: 'au_search_zed', name: '张三丰' })
    await db().user.update({ where: { id: target.id }, data: { mobile: '13712345678' } })
    const idsFor = async (keyword: string) => expectOk(await listUsers(admin.token, { keyword })).list.map((u: { id: string }) => u.id)

    expect(await idsFor('SEARCH_Z')).toEqual([target.id])
    expect(await idsFor('三丰')).toEqual([target.id])
    expect(await idsFor('37123456')).toEqual([target.id])
    expect(await idsFor('  au_search_zed  ')).toEqual([target.id])
    expect(await idsFor('no-such-thing-anywhere')).toEqual([])
  })

  it('filters by role', async () => {
    const manager = await createUser({ role: 'MANAGER', username: 'au_list_mgr' })
    const data = expectOk(await listUsers(admin.token, { role: 'MANAGER' }))
    expect(data.list.map((u: { id: string }) => u.id)).toContain(manager.id)
    expect(data.list.every((u: { role: string }) => u.role === 'MANAGER')).toBe(true)
    expect(data.total).toBe(await db().user.count({ where: { role: 'MANAGER' } }))
  })

  // Prisma's `contains` does not escape LIKE wildcards; the search must.
  it('treats % and _ in the keyword as plain characters', async () => {
    const withUnderscore = await createUser({ username: 'au_wild_x' })
    const total = async (keyword: string) => expectOk(await listUsers(admin.token, { keyword })).total
    expect(await total('%')).toBe(0)
    expect(await total('pagerow_0')).toBe(0)
    expect(await total('wild_x')).toBe(1)
    expect(withUnderscore.username).toContain('_')
  })

  it.each([
    ['pageSize over 100', { pageSize: 101 }, '每页条数不能大于 100'],
    ['pageSize 0', { pageSize: 0 }, '每页条数不能小于 1'],
    ['pageSize not a number', { pageSize: 'abc' }, '每页条数的格式不正确'],
    ['page 0', { page: 0 }, '页码不能小于 1'],
    ['page not an integer', { page: 1.5 }, '页码必须是整数'],
    ['an unknown role', { role: 'ROOT' }, '角色的取值不在可选范围内'],
    ['a keyword over 64 characters', { keyword: 'k'.repeat(65) }, '关键词最多 64 个字符'],
  ])('answers 400 to %s', async (_case, query, message) => {
    expectFail(await listUsers(admin.token, query), 400, message)
  })

  it('accepts pageSize 100', async () => {
    expect(expectOk(await listUsers(admin.token, { pageSize: 100 })).list.length).toBe(Math.min(100, await db().user.count()))
  })
})

describe('POST /api/admin/user', () => {
  it('creates the user, who can then log in, and writes an audit record', async () => {
    const before = await auditCount()
    const created = expectOk(
      await createAs(admin, { username: 'AU_New_Amy', name: '艾米', password: 'created-pass-1', role: 'MANAGER', mobile: '13800000001' }),
    )
    expect(Object.keys(created).sort()).toEqual(ROW_KEYS)
    expect(created).toMatchObject({ username: 'au_new_amy', name: '艾米', role: 'MANAGER', mobile: '13800000001', bannedAt: null, points: 0, balance: 0 })

    const row = await rowOf(created.id)
    expect(row).toMatchObject({ username: 'au_new_amy', role: 'MANAGER', mobile: '13800000001' })
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/)
    expectOk(await loginAs('au_new_amy', 'created-pass-1'))

    expect(await auditCount()).toBe(before + 1)
    const [audit] = await auditsFor(created.id)
    expect(audit).toMatchObject({
      action: 'user.create',
      targetType: 'User',
      targetId: created.id,
      actorId: admin.id,
      actorName: 'au_root',
      actorRole: 'ADMIN',
      ip: ADMIN_IP,
      before: null,
      after: { username: 'au_new_amy', name: '艾米', role: 'MANAGER', mobile: '13800000001' },
    })
    expect(JSON.stringify(audit)).not.toContain('created-pass-1')
  })

  it('defaults the role to USER and stores an empty mobile as none', async () => {
    const created = expectOk(await createAs(admin, { username: 'au_new_ben', name: 'Ben', password: 'created-pass-1', mobile: '' }))
    expect(created).toMatchObject({ role: 'USER', mobile: null })
  })

  it('lets an ADMIN create another ADMIN', async () => {
    const created = expectOk(await createAs(admin, { username: 'au_new_admin', name: 'Boss', password: 'created-pass-1', role: 'ADMIN' }))
    expect((await rowOf(created.id))!.role).toBe('ADMIN')
  })

  it('answers 409 to a taken username (any case) or mobile, writing nothing', async () => {
    await createAs(admin, { username: 'au_dup', name: 'Dup', password: 'created-pass-1', mobile: '13800000002' })
    const users = await db().user.count()
    const audits = await auditCount()
    expectFail(await createAs(admin, { username: 'AU_DUP', name: 'Dup 2', password: 'created-pass-1' }), 409, '用户名或手机号已被占用')
    expectFail(await createAs(admin, { username: 'au_dup_2', name: 'Dup 2', password: 'created-pass-1', mobile: '13800000002' }), 409, '用户名或手机号已被占用')
    expect(await db().user.count()).toBe(users)
    expect(await auditCount()).toBe(audits)
  })

  it.each([
    ['a bad username', { username: 'x', name: 'n', password: 'created-pass-1' }, '用户名为 3-32 位字母、数字或下划线'],
    ['no name', { username: 'au_bad_1', password: 'created-pass-1' }, '请填写昵称'],
    ['a blank name', { username: 'au_bad_1', name: '   ', password: 'created-pass-1' }, '昵称不能为空'],
    ['a short password', { username: 'au_bad_1', name: 'n', password: 'short' }, '密码至少 8 位'],
    ['an unknown role', { username: 'au_bad_1', name: 'n', password: 'created-pass-1', role: 'ROOT' }, '角色的取值不在可选范围内'],
    ['a bad mobile', { username: 'au_bad_1', name: 'n', password: 'created-pass-1', mobile: '12345' }, '请输入 11 位中国大陆手机号'],
    ['points', { username: 'au_bad_1', name: 'n', password: 'created-pass-1', points: 5 }, /^不支持的参数：.*points/],
    ['a balance', { username: 'au_bad_1', name: 'n', password: 'created-pass-1', balance: 500 }, /^不支持的参数：.*balance/],
  ])('answers 400 to a body with %s and writes nothing', async (_case, body, message) => {
    const audits = await auditCount()
    expectFail(await createAs(admin, body), 400, message)
    expect(await db().user.findUnique({ where: { username: 'au_bad_1' } })).toBeNull()
    expect(await auditCount()).toBe(audits)
  })
})

describe('PATCH /api/admin/user/{id}', () => {
  it('edits name, role and mobile, audits before and after, and signs the user out', async () => {
    const target = await createUser({ username: 'au_edit_cat', name: 'Cat' })
    const edited = expectOk(await patchAs(admin, target.id, { name: '凯特', role: 'MANAGER', mobile: '13800000003' }))
    expect(edited).toMatchObject({ id: target.id, name: '凯特', role: 'MANAGER', mobile: '13800000003' })
    const row = await rowOf(target.id)
    expect(row).toMatchObject({ name: '凯特', role: 'MANAGER', mobile: '13800000003', tokenVersion: target.tokenVersion + 1 })

    const [audit] = await auditsFor(target.id)
    expect(audit).toMatchObject({
      action: 'user.update',
      targetType: 'User',
      actorId: admin.id,
      actorRole: 'ADMIN',
      ip: ADMIN_IP,
      before: { name: 'Cat', role: 'USER', mobile: null, banned: false },
      after: { name: '凯特', role: 'MANAGER', mobile: '13800000003', banned: false },
    })
    // The role change revoked the old token.
    expect(await isSignedIn(target.token)).toBe(false)
  })

  it('keeps the user signed in when only the name or mobile changes', async () => {
    const target = await createUser({ username: 'au_edit_dot' })
    expectOk(await patchAs(admin, target.id, { name: 'Dot', mobile: '13800000004' }))
    expectOk(await patchAs(admin, target.id, { role: 'USER' }))
    expect((await rowOf(target.id))!.tokenVersion).toBe(target.tokenVersion)
    expect(await isSignedIn(target.token)).toBe(true)
  })

  it('clears the mobile with "" or null', async () => {
    const target = await createUser({ username: 'au_edit_eel' })
    expectOk(await patchAs(admin, target.id, { mobile: '13800000005' }))
    expect(expectOk(await patchAs(admin, target.id, { mobile: '' })).mobile).toBeNull()
    expectOk(await patchAs(admin, target.id, { mobile: '13800000005' }))
    expect(expectOk(await patchAs(admin, target.id, { mobile: null })).mobile).toBeNull()
    expect((await rowOf(target.id))!.mobile).toBeNull()
  })

  it('answers 409 to a mobile bound to someone else, changing nothing', async () => {
    const holder = await createUser({ username: 'au_edit_fox' })
    const target = await createUser({ username: 'au_edit_gnu', name: 'Gnu' })
    expectOk(await patchAs(admin, holder.id, { mobile: '13800000006' }))
    const audits = await auditCount()
    expectFail(await patchAs(admin, target.id, { name: 'Changed', mobile: '13800000006' }), 409, '手机号已被其他用户绑定')
    expect(await rowOf(target.id)).toMatchObject({ name: 'Gnu', mobile: null })
    expect(await auditCount()).toBe(audits)
  })

  it('resets the password: old token 401, new password logs in, the audit holds no password', async () => {
    const target = await createUser({ username: 'au_edit_hen', password: 'original-pass-1' })
    expectOk(await patchAs(admin, target.id, { password: 'reset-by-admin-1' }))
    expect(await isSignedIn(target.token)).toBe(false)
    expectFail(await loginAs('au_edit_hen', 'original-pass-1'), 400)
    expectOk(await loginAs('au_edit_hen', 'reset-by-admin-1'))
    const audit = first(await auditsFor(target.id))
    expect(audit.after).toMatchObject({ passwordReset: true })
    expect(JSON.stringify(audit)).not.toContain('reset-by-admin-1')
  })

  it('bans and unbans: a ban revokes tokens and is audited', async () => {
    const target = await createUser({ username: 'au_edit_ibx' })
    const banned = expectOk(await patchAs(admin, target.id, { banned: true }))
    expect(banned.bannedAt).toEqual(expect.any(String))
    expect(await isSignedIn(target.token)).toBe(false)
    expect(expectOk(await patchAs(admin, target.id, { banned: false })).bannedAt).toBeNull()
    const audits = await auditsFor(target.id)
    expect(audits.map((a) => [(a.before as { banned: boolean }).banned, (a.after as { banned: boolean }).banned])).toEqual([
      [false, true],
      [true, false],
    ])
  })

  it.each([
    ['points', { points: 5 }],
    ['balance', { balance: 100 }],
    ['tokenVersion', { tokenVersion: 0 }],
    ['passwordHash', { passwordHash: 'x' }],
    ['username', { username: 'renamed' }],
    ['a valid field next to an unknown one', { name: 'Sneaky', points: 5 }],
  ])('answers 400 to a body with %s and writes nothing', async (key, body) => {
    const target = await createUser({ username: `au_mass_${key.replace(/\W/g, '').toLowerCase().slice(0, 20)}`, name: 'Mass', points: 1 })
    const audits = await auditCount()
    expectFail(await patchAs(admin, target.id, body), 400, /^不支持的参数：/)
    expect(await rowOf(target.id)).toMatchObject({ name: 'Mass', points: 1, balance: 0, username: target.username, tokenVersion: 0 })
    expect(await auditCount()).toBe(audits)
  })

  it.each([
    ['a bad mobile', { mobile: '1380000' }, '请输入 11 位中国大陆手机号'],
    ['a blank name', { name: ' ' }, '昵称不能为空'],
    ['an unknown role', { role: 'OWNER' }, '角色的取值不在可选范围内'],
    ['banned as a string', { banned: 'yes' }, '禁用状态的格式不正确'],
    ['a short password', { password: 'short' }, '密码至少 8 位'],
  ])('answers 400 to %s', async (_case, body, message) => {
    const target = await createUser({ name: 'Valid' })
    expectFail(await patchAs(admin, target.id, body), 400, message)
    expect(await rowOf(target.id)).toMatchObject({ name: 'Valid', role: 'USER', mobile: null, bannedAt: null })
  })

  it('answers 404 to an unknown id', async () => {
    const audits = await auditCount()
    expectFail(await patchAs(admin, 'c-no-such-user', { name: 'x' }), 404, '用户不存在')
    expect(await auditCount()).toBe(audits)
  })
})

describe('DELETE /api/admin/user/{id}', () => {
  it('deletes the user, audits it and ends their sessions', async () => {
    const target = await createUser({ username: 'au_del_jay', name: 'Jay' })
    expect(expectOk(await deleteAs(admin, target.id))).toEqual({ id: target.id })
    expect(await rowOf(target.id)).toBeNull()
    expect(await isSignedIn(target.token)).toBe(false)

    const [audit] = await auditsFor(target.id)
    expect(audit).toMatchObject({
      action: 'user.delete',
      targetType: 'User',
      actorId: admin.id,
      ip: ADMIN_IP,
      before: { id: target.id, username: 'au_del_jay', name: 'Jay', role: 'USER' },
      after: null,
    })
  })

  it("takes the user's likes, favourites and reports of wall works with them, and the works' counts drop", async () => {
    const model = await createModel({ name: 'au-del-wall' })
    const artist = await createUser()
    const task = await createTaskRow(artist.id, { modelId: model.id, params: { prompt: '湖' } })
    const work = await db().wallWork.create({
      data: {
        taskId: task.id,
        userId: artist.id,
        status: 'APPROVED',
        listedAt: new Date(),
        modelType: 'STABLE_DIFFUSION',
        modelName: 'demo',
        imageUrl: '/files/x/a.png',
        thumbUrl: '/files/x/a.webp',
        width: 64,
        height: 64,
        prompt: '湖',
      },
    })
    const [target, fan] = await Promise.all([createUser({ username: 'au_del_fan' }), createUser()])
    for (const who of [target, fan]) {
      expectOk(await callRoute(likeRoute.POST, { token: who.token, params: { id: work.id } }))
      expectOk(await callRoute(reportRoute.POST, { token: who.token, params: { id: work.id } }))
    }
    expectOk(await callRoute(favoriteRoute.POST, { token: target.token, params: { id: work.id } }))
    expect(await db().wallWork.findUniqueOrThrow({ where: { id: work.id } })).toMatchObject({ likes: 2, reports: 2 })

    expectOk(await deleteAs(admin, target.id))
    expect(await db().wallWork.findUniqueOrThrow({ where: { id: work.id } })).toMatchObject({ likes: 1, reports: 1 })
    const left = await Promise.all([
      db().wallLike.count({ where: { userId: target.id } }),
      db().wallReport.count({ where: { userId: target.id } }),
      db().wallFavorite.count({ where: { userId: target.id } }),
    ])
    expect(left).toEqual([0, 0, 0])
    expect(await db().wallLike.count({ where: { workId: work.id } })).toBe(1)
  })

  it('refuses (409) to delete a user with points or balance history, writing nothing', async () => {
    const target = await createUser({ username: 'au_del_kim', points: 7 })
    const audits = await auditCount()
    expectFail(await deleteAs(admin, target.id), 409, '该用户有积分或余额流水，不能删除；可以禁用该账号')
    expect(await rowOf(target.id)).toMatchObject({ points: 7 })
    expect(await auditCount()).toBe(audits)
    expect(await isSignedIn(target.token)).toBe(true)
  })

  it('answers 404 to an unknown id and writes nothing', async () => {
    const audits = await auditCount()
    expectFail(await deleteAs(admin, 'c-no-such-user'), 404, '用户不存在')
    expect(await auditCount()).toBe(audits)
  })

  it('refuses an admin deleting themself (409), even with other admins around', async () => {
    const other = await createUser({ role: 'ADMIN' })
    const self = await createUser({ role: 'ADMIN' })
    expectFail(await deleteAs(self, self.id), 409, '不能删除自己')
    expect(await rowOf(self.id)).not.toBeNull()
    expect(await rowOf(other.id)).not.toBeNull()
  })
})

describe('the last administrator', () => {
  /** Runs `attempt` and asserts it is refused with 409 and that neither the admin nor the audit log changed. */
  async function expectRefusedAndUnchanged(solo: TestUser, attempt: () => Promise<Awaited<ReturnType<typeof callRoute>>>, message: string) {
    const before = await rowOf(solo.id)
    const audits = await auditCount()
    expectFail(await attempt(), 409, message)
    expect(await rowOf(solo.id)).toEqual(before)
    expect(await auditCount()).toBe(audits)
    expect(await isSignedIn(solo.token)).toBe(true)
  }

  it('cannot be demoted, banned or deleted', async () => {
    const solo = await createUser({ role: 'ADMIN', username: 'au_solo' })
    await onlyAdmins(solo)
    await expectRefusedAndUnchanged(solo, () => patchAs(solo, solo.id, { role: 'MANAGER' }), '不能降级最后一个管理员')
    await expectRefusedAndUnchanged(solo, () => patchAs(solo, solo.id, { role: 'USER', name: 'demoted' }), '不能降级最后一个管理员')
    await expectRefusedAndUnchanged(solo, () => patchAs(solo, solo.id, { banned: true }), '不能禁用自己')
    await expectRefusedAndUnchanged(solo, () => deleteAs(solo, solo.id), '不能删除自己')
    expect(await db().user.count({ where: { role: 'ADMIN' } })).toBe(1)
  })

  it('counts only active admins: a banned second ADMIN does not make a demotion safe', async () => {
    const solo = await createUser({ role: 'ADMIN', username: 'au_solo2' })
    const banned = await createUser({ role: 'ADMIN', username: 'au_banned_admin' })
    await onlyAdmins(solo, banned)
    expectOk(await patchAs(solo, banned.id, { banned: true }))
    await expectRefusedAndUnchanged(solo, () => patchAs(solo, solo.id, { role: 'USER' }), '不能降级最后一个管理员')
  })

  it('with two admins, one may demote the other, whose token then gets 401', async () => {
    const a = await createUser({ role: 'ADMIN' })
    const b = await createUser({ role: 'ADMIN' })
    await onlyAdmins(a, b)
    expectOk(await patchAs(a, b.id, { role: 'USER' }))
    expect((await rowOf(b.id))!.role).toBe('USER')
    expect(await isSignedIn(b.token)).toBe(false)
    expectFail(await patchAs(b, a.id, { role: 'USER' }), 401)
  })

  it.each([
    ['demote', (actor: TestUser, target: TestUser) => patchAs(actor, target.id, { role: 'USER' }), '不能降级最后一个管理员'],
    ['ban', (actor: TestUser, target: TestUser) => patchAs(actor, target.id, { banned: true }), '不能禁用最后一个管理员'],
    ['delete', (actor: TestUser, target: TestUser) => deleteAs(actor, target.id), '不能删除最后一个管理员'],
  ])('two admins who %s each other at the same moment: exactly one succeeds, one admin remains', async (_verb, act, message) => {
    for (let round = 0; round < 3; round++) {
      const a = await createUser({ role: 'ADMIN' })
      const b = await createUser({ role: 'ADMIN' })
      await onlyAdmins(a, b)
      const results = await Promise.all([act(a, b), act(b, a)])
      const statuses = results.map((r) => r.status).sort()
      // The loser is refused by the guard (409), or, if the winner committed before the
      // loser's request was even authorized, by its revoked token (401).
      expect(statuses[0]).toBe(200)
      expect([401, 409]).toContain(statuses[1])
      const loser = results.find((r) => r.status !== 200)!
      if (loser.status === 409) expect(loser.body.errMessage).toBe(message)
      const activeAdmins = await db().user.findMany({ where: { role: 'ADMIN', bannedAt: null }, select: { id: true } })
      expect(activeAdmins).toHaveLength(1)
      expect([a.id, b.id]).toContain(only(activeAdmins).id)
    }
  })
})

describe('a MANAGER racing a promotion', () => {
  const ROUNDS = 20

  // An ADMIN promotes X to ADMIN while a MANAGER acts on X. The MANAGER may only win
  // while X is still a USER (its write, and audit, come before the promotion's); once X
  // is an ADMIN it must be refused (403) and X left as the promotion made it.
  it.each([
    ['reset the password of', (manager: TestUser, id: string) => patchAs(manager, id, { password: 'manager-reset-1' })],
    ['ban', (manager: TestUser, id: string) => patchAs(manager, id, { banned: true })],
    ['delete', (manager: TestUser, id: string) => deleteAs(manager, id)],
  ])('a MANAGER who tries to %s a user being promoted never reaches the ADMIN', async (_verb, act) => {
    const promoter = await createUser({ role: 'ADMIN' })
    const manager = await createUser({ role: 'MANAGER' })
    for (let round = 0; round < ROUNDS; round++) {
      const target = await createUser()
      const [promotion, attempt] = await Promise.all([patchAs(promoter, target.id, { role: 'ADMIN' }), act(manager, target.id)])
      const audits = await auditsFor(target.id)
      const promotionAudit = audits.find((a) => a.actorId === promoter.id)
      const managerAudit = audits.find((a) => a.actorId === manager.id)
      const row = await rowOf(target.id)

      if (attempt.status === 200) {
        // The MANAGER went first, while X was a USER: a deleted X cannot then be promoted.
        expect(managerAudit).toBeDefined()
        if (promotion.status === 200) expect(managerAudit!.id, 'the MANAGER changed X after X became an ADMIN').toBeLessThan(promotionAudit!.id)
        else expectFail(promotion, 404, '用户不存在')
      } else {
        expectFail(attempt, 403)
        expectOk(promotion)
        expect(managerAudit).toBeUndefined()
        expect(row).toMatchObject({ role: 'ADMIN', passwordHash: target.passwordHash, bannedAt: null })
      }
    }
  })
})
