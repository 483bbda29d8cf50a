// WeChat web OAuth inside WeChat (docs/PROTOCOLS.md §5.1 and §8.4): sign-in of new and returning
// users, binding to the signed-in user, and every way a callback can be refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as authorize from '@/app/api/auth/wechat/authorize/route'
import * as callback from '@/app/api/auth/wechat/callback/route'
import * as logout from '@/app/api/auth/logout/route'
import * as options from '@/app/api/auth/wechat/options/route'
import * as profile from '@/app/api/users/profile/route'
import { db } from '@/lib/db'
import { startFakeWechat, type FakeWechat, type WechatPerson } from '../fakes/wechat'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { tokenSignedInAgo } from '../helpers/old-session'
import { configure, finish, passThroughWechat, rawCall, startByLink, startByRequest, wechatRoundTrip } from '../helpers/sign-in'

const MP = { appId: 'wx0123456789abcdef', secret: '0123456789abcdef0123456789abcdef' }
const STATE_INVALID = '微信授权状态无效，请重新发起微信登录'
const CODE_INVALID = '微信授权码无效或已使用，请重新发起微信登录'

let fake: FakeWechat
let admin: Awaited<ReturnType<typeof createUser>>
let personCounter = 0

function person(over: Partial<WechatPerson> = {}): WechatPerson {
  const n = ++personCounter
  return {
    openid: `oMp_${n}_${Date.now().toString(36)}`,
    unionid: `uId_${n}_${Date.now().toString(36)}`,
    nickname: `小画家${n}`,
    headimgurl: fake.avatarUrl(`p${n}`),
    ...over,
  }
}

const login = (query: Record<string, string> = {}) => wechatRoundTrip(startByLink({ purpose: 'login', ...query }))

beforeAll(async () => {
  fake = await startFakeWechat({ apps: { [MP.appId]: MP.secret }, person: { openid: 'unset', nickname: 'unset' }, redirectHosts: ['localhost'] })
  process.env.WX_API_BASE = fake.url
  process.env.WX_OPEN_BASE = fake.url
  admin = await createUser({ role: 'ADMIN' })
})

afterAll(async () => {
  await fake.close()
})

describe('when WeChat sign-in is off or incomplete', () => {
  it('says so clearly, and the authorize link lands on /wx_auth with the reason', async () => {
    expect(expectOk(await callRoute(options.GET))).toEqual({ available: false, message: '本站未开启微信登录，请使用其他方式登录', openPlatform: false })
    const res = await rawCall(authorize.GET, { query: { purpose: 'login' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('http://localhost/wx_auth?error=disabled')
    expect(res.headers.get('set-cookie')).toBeNull()
    const post = await rawCall(authorize.POST, { method: 'POST', body: { purpose: 'login' } })
    expect(post.status).toBe(403)
    expect(await db().oAuthState.count()).toBe(0)
  })

  it('an app id without its secret is reported as incomplete', async () => {
    await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: MP.appId })
    expect(expectOk(await callRoute(options.GET))).toMatchObject({ available: false, message: expect.stringContaining('微信登录尚未配置完成') })
    expect((await rawCall(authorize.GET, { query: { purpose: 'login' } })).headers.get('location')).toBe('http://localhost/wx_auth?error=incomplete')
  })
})

describe('with WeChat configured', () => {
  beforeAll(async () => {
    await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: MP.appId, WX_APP_SECRET: MP.secret })
  })
  beforeEach(() => fake.setPerson(person()))

  it('the link redirects to the documented authorize URL with a state bound to this browser', async () => {
    expect(expectOk(await callRoute(options.GET))).toEqual({ available: true, message: null, openPlatform: false })
    const started = await startByLink({ purpose: 'login', return: '/text2img?x=1' })
    expect(started.wechatUrl).toBe(
      `${fake.url}/connect/oauth2/authorize?appid=${MP.appId}&redirect_uri=http%3A%2F%2Flocalhost%2Fwx_auth&response_type=code&scope=snsapi_userinfo&state=${started.state}#wechat_redirect`,
    )
    expect(started.cookie).toBe(`wx_oauth_state=${started.state}`)
    const row = await db().oAuthState.findUniqueOrThrow({ where: { state: started.state } })
    expect(row).toMatchObject({ purpose: 'login', returnPath: '/text2img?x=1', usedAt: null, userId: null })
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000)
  })

  it('a new WeChat user gets an account with the WeChat name and avatar, and a token; it agreed to the terms shown above the sign-in', async () => {
    const who = person()
    fake.setPerson(who)
    const before = await db().user.count()
    const res = await login({ return: '/text2img' })
    const data = expectOk(res)
    expect(data).toEqual({ kind: 'login', token: expect.any(String), returnPath: '/text2img' })
    expect(await db().user.count()).toBe(before + 1)
    const me = expectOk(await callRoute(profile.GET, { token: data.token }))
    expect(me).toMatchObject({ name: who.nickname, avatar: who.headimgurl, mobile: null, role: 'USER', oauth: { hasOpenId: true } })
    expect(me.username).toMatch(/^wx_[a-z0-9]{10}$/)
    const row = await db().user.findUniqueOrThrow({ where: { id: me.id } })
    expect(row).toMatchObject({ wxOpenId: who.openid, wxUnionId: who.unionid, passwordHash: null })
    expect(row.agreedTermsAt).toBeInstanceOf(Date)
  })

  it('the callback answer clears the state cookie (and a QR ticket’s details cookie)', async () => {
    const started = await startByLink({ purpose: 'login' })
    const back = await passThroughWechat(started.wechatUrl)
    const res = await rawCall(callback.POST, {
      method: 'POST',
      body: { code: back.code, state: back.state },
      headers: { cookie: `other=1; ${started.cookie}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual([
      'wx_oauth_state=; Path=/api/auth/wechat; Max-Age=0; HttpOnly; SameSite=Lax',
      'wx_ticket_from=; Path=/api/auth/wechat; Max-Age=0; HttpOnly; SameSite=Lax',
    ])
  })

  it('a returning user is found by unionid, even under another openid, and gains the missing openid', async () => {
    const who = person()
    const existing = await db().user.create({ data: { username: `wxold${personCounter}`, name: '老用户', wxUnionId: who.unionid } })
    fake.setPerson(who)
    const data = expectOk(await login())
    expect(expectOk(await callRoute(profile.GET, { token: data.token })).id).toBe(existing.id)
    expect(await db().user.findUniqueOrThrow({ where: { id: existing.id } })).toMatchObject({ wxOpenId: who.openid, wxUnionId: who.unionid, name: '老用户' })

    // The next time, a new openid (another 公众号 of the same Open Platform) still finds them.
    fake.setPerson({ ...who, openid: `${who.openid}_other` })
    const again = expectOk(await login())
    expect(expectOk(await callRoute(profile.GET, { token: again.token })).id).toBe(existing.id)
    expect(await db().user.count({ where: { wxUnionId: who.unionid } })).toBe(1)
  })

  it('a returning user without unionid is found by openid', async () => {
    const who = person({ unionid: undefined })
    const first = expectOk(await login())
    fake.setPerson(who)
    const a = expectOk(await login())
    const b = expectOk(await login())
    const idA = expectOk(await callRoute(profile.GET, { token: a.token })).id
    expect(expectOk(await callRoute(profile.GET, { token: b.token })).id).toBe(idA)
    expect(expectOk(await callRoute(profile.GET, { token: first.token })).id).not.toBe(idA)
  })

  it('a signed-in user without WeChat binds it to their own account', async () => {
    const user = await createUser()
    const who = person()
    fake.setPerson(who)
    const started = await startByRequest({ purpose: 'bind', returnPath: '/account' }, user.token)
    expect(await db().oAuthState.findUniqueOrThrow({ where: { state: started.state } })).toMatchObject({ purpose: 'bind', userId: user.id })
    const back = await passThroughWechat(started.wechatUrl)
    expect(expectOk(await finish(back.code!, back.state!, started.cookie))).toEqual({ kind: 'bound', returnPath: '/account' })
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ wxOpenId: who.openid, wxUnionId: who.unionid })
    expect(expectOk(await callRoute(profile.GET, { token: user.token })).oauth).toEqual({ hasOpenId: true })
    // Bound once: starting again is refused.
    const again = await rawCall(authorize.POST, { method: 'POST', body: { purpose: 'bind' }, token: user.token })
    expect(again.status).toBe(409)
    expect((await again.json()).errMessage).toBe('你的账号已绑定微信')
  })

  it('binding a WeChat that belongs to another account is refused, and neither account changes', async () => {
    const who = person()
    const owner = await db().user.create({ data: { username: `wxowner${personCounter}`, name: '原主人', wxOpenId: who.openid, wxUnionId: who.unionid } })
    const user = await createUser()
    fake.setPerson(who)
    const res = await wechatRoundTrip(startByRequest({ purpose: 'bind' }, user.token))
    expectFail(res, 409, '该微信已绑定其他账号，不能重复绑定')
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ wxOpenId: null, wxUnionId: null })
    expect(await db().user.findUniqueOrThrow({ where: { id: owner.id } })).toMatchObject({ wxOpenId: who.openid, wxUnionId: who.unionid })
  })

  it('a bind started before the owner signed out everywhere binds nothing (a stolen session cannot add its WeChat)', async () => {
    const user = await createUser()
    fake.setPerson(person())
    // From an address of its own: the file's other starts use up 10.0.0.1's allowance.
    const started = await startByRequest({ purpose: 'bind' }, user.token, '10.0.7.1')
    const back = await passThroughWechat(started.wechatUrl)
    expectOk(await callRoute(logout.POST, { method: 'POST', token: user.token }))
    expectFail(await finish(back.code!, back.state!, started.cookie), 403, '登录状态已失效，请重新登录后再绑定微信')
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ wxOpenId: null, wxUnionId: null })
  })

  it('binding needs a recent sign-in: a session signed in 11 minutes ago starts nothing', async () => {
    const user = await createUser()
    const before = await db().oAuthState.count({ where: { userId: user.id } })
    const res = await rawCall(authorize.POST, { method: 'POST', body: { purpose: 'bind' }, token: await tokenSignedInAgo(user, 11), ip: '10.0.7.2' })
    expect(res.status).toBe(403)
    expect((await res.json()).errMessage).toBe('为了账号安全，请重新登录后 10 分钟内绑定微信')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await db().oAuthState.count({ where: { userId: user.id } })).toBe(before)
  })

  it('binding needs a signed-in user', async () => {
    const res = await rawCall(authorize.POST, { method: 'POST', body: { purpose: 'bind' } })
    expect(res.status).toBe(401)
    expect((await rawCall(authorize.GET, { query: { purpose: 'bind' } })).headers.get('location')).toBe('http://localhost/wx_auth?error=failed')
  })

  it('refuses a snapshot-page user and creates nothing', async () => {
    fake.setPerson(person({ snapshot: true }))
    const before = await db().user.count()
    expectFail(await login(), 400, '当前是微信快照页，无法登录。请点击页面底部的“使用完整服务”后重试')
    expect(await db().user.count()).toBe(before)
  })

  it('refuses a snapshot-page user when binding too', async () => {
    const user = await createUser()
    fake.setPerson(person({ snapshot: true }))
    expectFail(await wechatRoundTrip(startByRequest({ purpose: 'bind' }, user.token)), 400, /快照页/)
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ wxOpenId: null })
  })

  describe('bad state', () => {
    it('an unknown state is refused', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      const forged = 'f'.repeat(48)
      expectFail(await finish(back.code!, forged, `wx_oauth_state=${forged}`), 400, STATE_INVALID)
    })

    it('a state started in another browser (no or another cookie) is refused and stays usable by its own browser', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      expectFail(await finish(back.code!, back.state!, null), 400, STATE_INVALID)
      expectFail(await finish(back.code!, back.state!, `wx_oauth_state=${'a'.repeat(48)}`), 400, STATE_INVALID)
      expectOk(await finish(back.code!, back.state!, started.cookie))
    })

    it('a used state is refused, even with a fresh code', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      expectOk(await finish(back.code!, back.state!, started.cookie))
      expectFail(await finish(back.code!, back.state!, started.cookie), 400, '该微信授权已处理过，请重新发起微信登录')
      const other = await startByLink({ purpose: 'login' })
      const fresh = await passThroughWechat(other.wechatUrl)
      expectFail(await finish(fresh.code!, back.state!, started.cookie), 400, '该微信授权已处理过，请重新发起微信登录')
    })

    it('an expired state is refused', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      await db().oAuthState.update({ where: { state: started.state }, data: { expiresAt: new Date(Date.now() - 1000) } })
      expectFail(await finish(back.code!, back.state!, started.cookie), 400, '微信授权已过期，请重新发起微信登录')
    })

    it('a malformed state or a missing code is a 400 naming it', async () => {
      expectFail(await finish('code', 'not-hex!', 'wx_oauth_state=x'), 400, '微信授权状态无效，请重新发起微信登录')
      expectFail(await callRoute(callback.POST, { body: { state: 'abc' } }), 400, '缺少微信授权码')
    })

    it('two callbacks racing with one state: exactly one wins', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      const results = await Promise.all([1, 2, 3].map(() => finish(back.code!, back.state!, started.cookie)))
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    })
  })

  describe('bad code', () => {
    it('a reused code is refused by WeChat and reported clearly', async () => {
      const first = await startByLink({ purpose: 'login' })
      const used = await passThroughWechat(first.wechatUrl)
      expectOk(await finish(used.code!, used.state!, first.cookie))
      const second = await startByLink({ purpose: 'login' })
      expectFail(await finish(used.code!, second.state, second.cookie), 400, CODE_INVALID)
      expect(
        fake.calls
          .filter((c) => c.path === '/sns/oauth2/access_token')
          .at(-1)
          ?.query.get('code'),
      ).toBe(used.code)
    })

    it('a code older than 5 minutes is refused', async () => {
      const started = await startByLink({ purpose: 'login' })
      const back = await passThroughWechat(started.wechatUrl)
      fake.advance(5 * 60 * 1000 + 1000)
      expectFail(await finish(back.code!, back.state!, started.cookie), 400, CODE_INVALID)
    })
  })

  it('a wrong AppSecret is reported as a configuration problem', async () => {
    await configure(admin.token, { WX_APP_SECRET: 'ffffffffffffffffffffffffffffffff' })
    try {
      expectFail(await login(), 503, '微信登录配置有误（AppID 或 AppSecret 不正确），请联系管理员')
    } finally {
      await configure(admin.token, { WX_APP_SECRET: MP.secret })
    }
  })

  it('an unsafe return path becomes /', async () => {
    for (const unsafe of ['//evil.example.com', 'https://evil.example.com/x', '/\\evil.example.com']) {
      const started = await startByLink({ purpose: 'login', return: unsafe })
      expect((await db().oAuthState.findUniqueOrThrow({ where: { state: started.state } })).returnPath).toBe('/')
    }
  })

  it('a banned user cannot sign in by WeChat', async () => {
    const who = person()
    await db().user.create({ data: { username: `wxbanned${personCounter}`, name: '被禁用', wxOpenId: who.openid, bannedAt: new Date() } })
    fake.setPerson(who)
    expectFail(await login(), 403, '账号已被禁用，请联系管理员')
  })

  it('the fake, like WeChat, only authorizes inside the WeChat browser and with the documented parameter order', async () => {
    const started = await startByLink({ purpose: 'login' })
    const outside = await fetch(started.wechatUrl, { redirect: 'manual' })
    expect(await outside.text()).toContain('请在微信客户端打开链接')
    const shuffled = new URL(started.wechatUrl)
    const reordered = `${shuffled.origin}${shuffled.pathname}?scope=snsapi_userinfo&appid=${MP.appId}&redirect_uri=x&response_type=code&state=s`
    expect(await (await fetch(reordered, { headers: { 'user-agent': 'MicroMessenger' }, redirect: 'manual' })).text()).toContain('参数错误')
  })
})
