// Site config: the public GET /api/site-config/site-info, the console's GET /api/site-config,
// PATCH /api/site-config/{name} with validation, secrets (encrypted, masked) and the audit log.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import * as siteInfo from '@/app/api/site-config/site-info/route'
import * as siteConfig from '@/app/api/site-config/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import { db } from '@/lib/db'
import { CONFIG_REGISTRY } from '@/lib/site-config/registry'
import { getConfigValue, invalidateConfigCache } from '@/lib/site-config/store'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { only } from '../helpers/present'

type TestUser = Awaited<ReturnType<typeof createUser>>
type ConsoleItem = { name: string; value: unknown; isSet: boolean; visibility: string; type: string; group: string; label: string }

const namesWith = (visibility: string) =>
  CONFIG_REGISTRY.filter((d) => d.visibility === visibility)
    .map((d) => d.name)
    .sort()
/** What site-info must answer: exactly the registry's public settings, those docs/PRODUCT.md §3.1 names among them. */
const PUBLIC_NAMES = namesWith('public')
const PRODUCT_PUBLIC_NAMES = ['name', 'logo', 'WX_APP_ID', 'WX_ENABLED', 'MOBILE_ENABLED', 'REGISTER_ENABLED']
const HIDDEN_NAMES = [...namesWith('admin'), ...namesWith('secret')]
const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e9f90'
const OTHER_SECRET = 'fedcba9876543210fedcba98765432aa'

let admin: TestUser
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN', username: 'sc_admin' })
})

const publicConfig = async () => expectOk(await callRoute(siteInfo.GET)).config
const consoleItem = async (name: string, token = admin.token): Promise<ConsoleItem> =>
  expectOk(await callRoute(siteConfig.GET, { token })).items.find((i: ConsoleItem) => i.name === name)
const patch = (name: string, value: unknown, token = admin.token) =>
  callRoute(siteConfigItem.PATCH, { method: 'PATCH', token, params: { name }, body: { value }, ip: '10.1.2.3' })
const storedRow = (name: string) => db().siteConfig.findUnique({ where: { name } })
const auditsFor = (name: string) => db().adminAuditLog.findMany({ where: { targetType: 'SiteConfig', targetId: name }, orderBy: { id: 'asc' } })

/** PATCHes a value that must be refused with 400, and checks nothing was stored or audited. */
async function expectInvalid(name: string, value: unknown, message: string | RegExp) {
  const row = await storedRow(name)
  const audits = await db().adminAuditLog.count()
  expectFail(await patch(name, value), 400, message)
  expect(await storedRow(name)).toEqual(row)
  expect(await db().adminAuditLog.count()).toBe(audits)
}

describe('GET /api/site-config/site-info', () => {
  it('answers the public settings to anyone, with their defaults', async () => {
    const res = await callRoute(siteInfo.GET)
    const config = expectOk(res).config
    expect(PUBLIC_NAMES).toEqual(expect.arrayContaining(PRODUCT_PUBLIC_NAMES))
    expect(HIDDEN_NAMES).toContain('WX_APP_SECRET')
    expect(Object.keys(config).sort()).toEqual(PUBLIC_NAMES)
    for (const hidden of HIDDEN_NAMES) expect(config).not.toHaveProperty(hidden)
    expect(config).toMatchObject({ name: 'AI 画室', logo: '/imgs/logo.svg', WX_APP_ID: '', WX_ENABLED: false, MOBILE_ENABLED: false, REGISTER_ENABLED: true })
    expect(config).not.toHaveProperty('WX_APP_SECRET')
    expect(JSON.stringify(res.body)).not.toMatch(/SECRET/i)
  })

  it('never carries a secret, even once one is set', async () => {
    expectOk(await patch('WX_APP_SECRET', SECRET))
    const res = await callRoute(siteInfo.GET)
    expect(Object.keys(res.body.data.config).sort()).toEqual(PUBLIC_NAMES)
    expect(JSON.stringify(res.body)).not.toContain(SECRET.slice(-8))
    expectOk(await patch('WX_APP_SECRET', ''))
  })
})

describe('PATCH /api/site-config/{name}', () => {
  it('stores a valid value, shows it in site-info at once and audits before and after', async () => {
    const before = (await publicConfig()).name
    const data = expectOk(await patch('name', '  我的画室  '))
    expect(data).toEqual({ name: 'name', value: '我的画室' })
    expect((await publicConfig()).name).toBe('我的画室')
    expect(await storedRow('name')).toMatchObject({ value: JSON.stringify('我的画室'), updatedById: admin.id })

    const [audit] = await auditsFor('name')
    expect(audit).toMatchObject({
      action: 'site-config.update',
      targetType: 'SiteConfig',
      targetId: 'name',
      actorId: admin.id,
      actorRole: 'ADMIN',
      ip: '10.1.2.3',
      before,
      after: '我的画室',
    })
  })

  it('stores booleans and a well-formed WX_APP_ID, visible in site-info', async () => {
    expectOk(await patch('WX_ENABLED', true))
    expectOk(await patch('MOBILE_ENABLED', true))
    expectOk(await patch('WX_APP_ID', 'wx0123456789abcdef'))
    expectOk(await patch('logo', 'https://cdn.example.com/logo.png'))
    expect(await publicConfig()).toMatchObject({
      WX_ENABLED: true,
      MOBILE_ENABLED: true,
      WX_APP_ID: 'wx0123456789abcdef',
      logo: 'https://cdn.example.com/logo.png',
    })
    expectOk(await patch('WX_ENABLED', false))
    expect((await publicConfig()).WX_ENABLED).toBe(false)
    expect((await consoleItem('WX_ENABLED')).value).toBe(false)
  })

  it.each([
    ['a boolean given a string', 'WX_ENABLED', 'true', '启用微信登录：取值的格式不正确'],
    ['a boolean given a number', 'REGISTER_ENABLED', 1, /^开放用户名注册：/],
    ['a string given a boolean', 'name', true, /^站点名称：/],
    ['an empty site name', 'name', '   ', '站点名称：站点名称不能为空'],
    ['a site name over 40 characters', 'name', '名'.repeat(41), /^站点名称：/],
    ['a malformed WX_APP_ID', 'WX_APP_ID', 'abc', '公众号 AppID：AppID 形如 wx 加 16 位十六进制字符'],
    ['a WX_APP_ID with capitals', 'WX_APP_ID', 'wx0123456789ABCDEF', '公众号 AppID：AppID 形如 wx 加 16 位十六进制字符'],
    ['a logo that is not a path or http(s) URL', 'logo', 'javascript:alert(1)', '站点 Logo：请输入以 / 开头的本站路径或 http(s):// 开头的地址'],
    ['a logo on another site written as //host', 'logo', '//evil.example/logo.png', '站点 Logo：请输入以 / 开头的本站路径或 http(s):// 开头的地址'],
    ['a logo on another site written as /\\host', 'logo', '/\\evil.example/logo.png', '站点 Logo：请输入以 / 开头的本站路径或 http(s):// 开头的地址'],
    ['a logo path with a tab a browser would drop', 'logo', '/\t/evil.example/logo.png', '站点 Logo：请输入以 / 开头的本站路径或 http(s):// 开头的地址'],
    ['a logo URL with no host', 'logo', 'https:///logo.png', '站点 Logo：请输入以 / 开头的本站路径或 http(s):// 开头的地址'],
    ['a malformed secret', 'WX_APP_SECRET', 'not-hex-at-all', '公众号 AppSecret：AppSecret 为 32 位十六进制字符'],
  ])('answers 400 to %s, storing and auditing nothing', async (_case, name, value, message) => {
    await expectInvalid(name, value, message)
  })

  it('answers 404 to an unknown name', async () => {
    const audits = await db().adminAuditLog.count()
    expectFail(await patch('NO_SUCH_SETTING', 'x'), 404, '未知的配置项：NO_SUCH_SETTING')
    expect(await storedRow('NO_SUCH_SETTING')).toBeNull()
    expect(await db().adminAuditLog.count()).toBe(audits)
  })

  it('answers 400 to a body without value, with extra keys, or with an object value', async () => {
    const send = (body: unknown) => callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'icp' }, body })
    expectFail(await send({}), 400, '配置值不正确')
    expectFail(await send({ value: 'x', name: 'logo' }), 400, /^不支持的参数：.*name/)
    expectFail(await send({ value: { nested: true } }), 400, '配置值不正确')
    expect(await storedRow('icp')).toBeNull()
  })

  it('keeps the custom recharge range in order: least at or under largest, unless custom amounts are off', async () => {
    expectOk(await patch('RECHARGE_MIN_CENTS', 1000))
    expectOk(await patch('RECHARGE_MAX_CENTS', 50_000))
    try {
      await expectInvalid('RECHARGE_MIN_CENTS', 50_001, '自定义充值最小金额（50001 分）不能大于最大金额（50000 分）')
      await expectInvalid('RECHARGE_MAX_CENTS', 999, '自定义充值最小金额（1000 分）不能大于最大金额（999 分）')
      expectOk(await patch('RECHARGE_MIN_CENTS', 50_000))
      expectOk(await patch('RECHARGE_MAX_CENTS', 0)) // custom amounts off: any least amount goes
      expectOk(await patch('RECHARGE_MIN_CENTS', 80_000))
      expect(await consoleItem('RECHARGE_MIN_CENTS')).toMatchObject({ value: 80_000 })
      // Two writes at once that each fit the stored range but not each other: one is refused.
      expectOk(await patch('RECHARGE_MIN_CENTS', 1000))
      expectOk(await patch('RECHARGE_MAX_CENTS', 50_000))
      const both = await Promise.all([patch('RECHARGE_MIN_CENTS', 10_000), patch('RECHARGE_MAX_CENTS', 5_000)])
      expect(both.map((answer) => answer.status).sort()).toEqual([200, 400])
      const [least, largest] = [await consoleItem('RECHARGE_MIN_CENTS'), await consoleItem('RECHARGE_MAX_CENTS')]
      expect(least.value as number).toBeLessThanOrEqual(largest.value as number)
    } finally {
      await db().siteConfig.deleteMany({ where: { name: { in: ['RECHARGE_MIN_CENTS', 'RECHARGE_MAX_CENTS'] } } })
    }
  })
})

describe('secret settings (WX_APP_SECRET)', () => {
  it('is stored encrypted, shown masked to the console and audited masked', async () => {
    const audits = (await auditsFor('WX_APP_SECRET')).length
    const data = expectOk(await patch('WX_APP_SECRET', SECRET))
    expect(data).toEqual({ name: 'WX_APP_SECRET', value: '••••9f90' })

    const item = await consoleItem('WX_APP_SECRET')
    expect(item).toMatchObject({ name: 'WX_APP_SECRET', visibility: 'secret', value: '••••9f90', isSet: true })

    const row = await storedRow('WX_APP_SECRET')
    expect(row!.value.startsWith('enc:v1:')).toBe(true)
    expect(row!.value).not.toContain(SECRET)
    expect(row!.value).not.toContain(SECRET.slice(0, 8))

    const written = (await auditsFor('WX_APP_SECRET')).slice(audits)
    expect(written).toHaveLength(1)
    expect(only(written).after).toBe('••••9f90')
    const allAudits = JSON.stringify(await db().adminAuditLog.findMany())
    expect(allAudits).not.toContain(SECRET)
    expect(allAudits).not.toContain(SECRET.slice(0, 8))
  })

  it('keeps the stored value when the masked string is sent back', async () => {
    const row = await storedRow('WX_APP_SECRET')
    const audits = (await auditsFor('WX_APP_SECRET')).length
    expect(expectOk(await patch('WX_APP_SECRET', '••••9f90'))).toEqual({ name: 'WX_APP_SECRET', value: '••••9f90' })
    expect(await storedRow('WX_APP_SECRET')).toEqual(row)
    expect((await consoleItem('WX_APP_SECRET')).value).toBe('••••9f90')
    // Nothing changed, so there is nothing to audit.
    expect(await auditsFor('WX_APP_SECRET')).toHaveLength(audits)
  })

  it('replaces the value with a new one, masking both sides of the audit', async () => {
    expectOk(await patch('WX_APP_SECRET', OTHER_SECRET))
    const row = await storedRow('WX_APP_SECRET')
    expect(row!.value.startsWith('enc:v1:')).toBe(true)
    expect(row!.value).not.toContain(OTHER_SECRET)
    expect((await consoleItem('WX_APP_SECRET')).value).toBe('••••32aa')
    const last = (await auditsFor('WX_APP_SECRET')).at(-1)!
    expect([last.before, last.after]).toEqual(['••••9f90', '••••32aa'])
  })

  it('can be cleared', async () => {
    expectOk(await patch('WX_APP_SECRET', ''))
    expect(await consoleItem('WX_APP_SECRET')).toMatchObject({ value: '', isSet: false })
  })

  it('shows every secret masked in the console list, and never a raw stored value', async () => {
    expectOk(await patch('WX_APP_SECRET', SECRET))
    const res = await callRoute(siteConfig.GET, { token: admin.token })
    const body = JSON.stringify(res.body)
    expect(body).not.toContain(SECRET)
    expect(body).not.toContain('enc:v1:')
    for (const item of res.body.data.items as ConsoleItem[]) {
      if (item.visibility === 'secret') expect(item.value === '' || String(item.value).startsWith('••••'), item.name).toBe(true)
    }
  })
})

describe('GET /api/site-config (console)', () => {
  it('lists every setting with group, label, type and visibility', async () => {
    const data = expectOk(await callRoute(siteConfig.GET, { token: admin.token }))
    expect(data.groups).toEqual(expect.arrayContaining(['基本信息', '注册与登录', '微信']))
    expect(data.items.map((i: ConsoleItem) => i.name)).toEqual(CONFIG_REGISTRY.map((d) => d.name))
    for (const item of data.items as ConsoleItem[]) {
      expect(data.groups).toContain(item.group)
      expect(item.label).toEqual(expect.any(String))
      expect(['public', 'admin', 'secret']).toContain(item.visibility)
    }
  })

  it('a MANAGER sees every setting but the secrets, which are left out altogether; a USER is refused', async () => {
    expectOk(await patch('WX_APP_SECRET', SECRET))
    try {
      const manager = await createUser({ role: 'MANAGER' })
      const res = await callRoute(siteConfig.GET, { token: manager.token })
      const names = expectOk(res)
        .items.map((i: ConsoleItem) => i.name)
        .sort()
      expect(names).toEqual([...namesWith('public'), ...namesWith('admin')].sort())
      expect(namesWith('secret').length).toBeGreaterThan(0)
      for (const secret of namesWith('secret')) expect(names).not.toContain(secret)
      expect(JSON.stringify(res.body)).not.toContain('••••')
      expect(JSON.stringify(res.body)).not.toContain(SECRET.slice(-4))
      expectFail(await callRoute(siteConfig.GET, { token: (await createUser()).token }), 403)
    } finally {
      expectOk(await patch('WX_APP_SECRET', ''))
    }
  })
})

describe('AdminAuditLog is append-only', () => {
  it('refuses UPDATE and DELETE at the database level', async () => {
    expect(await db().adminAuditLog.count()).toBeGreaterThan(0)
    const before = await db().adminAuditLog.findMany({ orderBy: { id: 'asc' } })
    await expect(db().$executeRawUnsafe(`UPDATE "AdminAuditLog" SET "action" = 'tampered'`)).rejects.toThrow(/append-only/)
    await expect(db().$executeRawUnsafe(`DELETE FROM "AdminAuditLog"`)).rejects.toThrow(/append-only/)
    await expect(db().adminAuditLog.updateMany({ data: { reason: 'tampered' } })).rejects.toThrow()
    await expect(db().adminAuditLog.deleteMany({})).rejects.toThrow()
    expect(await db().adminAuditLog.findMany({ orderBy: { id: 'asc' } })).toEqual(before)
  })
})

describe('the kept copy of the settings', () => {
  it('a read that began before a save does not keep its older values once the save has cleared the copy', async () => {
    invalidateConfigCache()
    const delegate = db().siteConfig
    const read = delegate.findMany.bind(delegate)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const slowRead = vi.spyOn(delegate, 'findMany').mockImplementationOnce((async () => {
      const rows = await read()
      await held
      return rows
    }) as never)
    const early = getConfigValue<string>('description')
    await vi.waitFor(() => expect(slowRead).toHaveBeenCalled())
    expectOk(await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'description' }, body: { value: '保存后的说明' } }))
    release()
    expect(await early).not.toBe('保存后的说明')
    expect(await getConfigValue<string>('description')).toBe('保存后的说明')
    slowRead.mockRestore()
  })
})
