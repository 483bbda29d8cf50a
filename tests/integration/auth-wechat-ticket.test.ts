// The desktop QR login (a ticket identified by a phone's WeChat OAuth, confirmed by an explicit
// same-origin request from that phone, polled by the desktop, single use, 5 minutes) and the
// Open Platform qrconnect login.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as authorize from '@/app/api/auth/wechat/authorize/route'
import * as options from '@/app/api/auth/wechat/options/route'
import * as ticket from '@/app/api/auth/wechat/ticket/route'
import * as ticketPoll from '@/app/api/auth/wechat/ticket/[id]/route'
import * as ticketConfirm from '@/app/api/auth/wechat/ticket/[id]/confirm/route'
import * as ticketScan from '@/app/api/auth/wechat/ticket/[id]/scan/route'
import * as profile from '@/app/api/users/profile/route'
import { ticketConfirmKey } from '@/lib/auth/wechat/confirm-ticket'
import { ticketPollKey } from '@/lib/auth/wechat/login-ticket'
import { db } from '@/lib/db'
import { startFakeWechat, type FakeWechat, type WechatPerson } from '../fakes/wechat'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure, finish, passThroughWechat, rawCall, startByLink, wechatRoundTrip } from '../helpers/sign-in'

const MP = { appId: 'wx0123456789abcdef', secret: '0123456789abcdef0123456789abcdef' }
const OPEN = { appId: 'wxfedcba9876543210', secret: 'fedcba9876543210fedcba9876543210' }
const EXPIRED = '二维码已过期，请在电脑上刷新二维码后重新扫描'
const USED = '二维码已使用，请在电脑上刷新二维码后重新扫描'

let fake: FakeWechat
let admin: Awaited<ReturnType<typeof createUser>>
let n = 0
const person = (over: Partial<WechatPerson> = {}): WechatPerson => ({ openid: `oMp_t${++n}`, unionid: `uId_t${n}`, nickname: `扫码用户${n}`, ...over })

const DESKTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const SITE = { origin: 'http://localhost' }

type Ticket = { id: string; pollKey: string; scanUrl: string; expiresAt: string; expiresInSeconds: number; qrSvg: string }
let ipCounter = 0
const newTicket = async (): Promise<Ticket> =>
  expectOk(await callRoute(ticket.POST, { body: {}, ip: `198.51.100.${++ipCounter}`, headers: { 'user-agent': DESKTOP_UA } }))
/** The desktop's poll, with the poll key its page was given when the ticket was created. */
const poll = (id: string, key: string | null = ticketPollKey(id)) =>
  callRoute(ticketPoll.GET, { params: { id }, headers: key === null ? {} : { 'x-ticket-key': key } })
const scan = (id: string) => callRoute(ticketScan.POST, { params: { id }, body: {} })
/** The QR link's query: the ticket and its sealed desktop details. */
const linkOf = (t: Ticket) => ({ purpose: 'ticket', ticket: t.id, from: new URL(t.scanUrl).searchParams.get('from')! })

/** The phone opens the QR link in WeChat and goes through OAuth: the callback's answer, and this browser's cookies. */
async function identifyOnPhone(t: Ticket) {
  const started = await startByLink(linkOf(t))
  const back = await passThroughWechat(started.wechatUrl)
  return { res: await finish(back.code!, back.state!, started.cookie), cookie: started.cookie, state: started.state }
}
const confirmRequest = (id: string, key: string, headers: Record<string, string>) => callRoute(ticketConfirm.POST, { params: { id }, body: { key }, headers })

/** The whole phone side: OAuth, then 确认登录 from the same page (its Origin and cookies). */
async function confirmOnPhone(t: Ticket) {
  const { res, cookie } = await identifyOnPhone(t)
  if (res.status !== 200) return res
  expect(res.body.data.kind).toBe('ticket-identified')
  return confirmRequest(t.id, res.body.data.confirmKey, { cookie, ...SITE })
}

beforeAll(async () => {
  fake = await startFakeWechat({ apps: { [MP.appId]: MP.secret, [OPEN.appId]: OPEN.secret }, person: person() })
  process.env.WX_API_BASE = fake.url
  process.env.WX_OPEN_BASE = fake.url
  admin = await createUser({ role: 'ADMIN' })
  await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: MP.appId, WX_APP_SECRET: MP.secret })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => fake.setPerson(person()))

describe('desktop QR login ticket', () => {
  it('is created with a 5-minute life, a scan URL on /wx_auth and its QR code', async () => {
    const created = await newTicket()
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(created.scanUrl).toMatch(new RegExp(`^http://localhost/wx_auth\\?ticket=${created.id}&from=[A-Za-z0-9_-]{60,200}$`))
    expect(created.expiresInSeconds).toBe(300)
    expect(created.qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    const life = new Date(created.expiresAt).getTime() - Date.now()
    expect(life).toBeGreaterThan(4.9 * 60 * 1000)
    expect(life).toBeLessThanOrEqual(5 * 60 * 1000)
    expect(expectOk(await poll(created.id))).toEqual({ status: 'PENDING' })
  })

  it('goes PENDING → SCANNED → IDENTIFIED by the phone’s OAuth → CONFIRMED by its 确认登录 → the token exactly once → CONSUMED', async () => {
    const who = person()
    fake.setPerson(who)
    const created = await newTicket()
    const { id } = created
    expect(expectOk(await scan(id))).toMatchObject({ status: 'SCANNED' })
    expect(expectOk(await poll(id))).toEqual({ status: 'SCANNED' })

    const { res, cookie } = await identifyOnPhone(created)
    const identified = expectOk(res)
    expect(identified).toMatchObject({
      kind: 'ticket-identified',
      ticketId: id,
      name: who.nickname,
      desktop: { ip: `198.51.100.${ipCounter}`, browser: 'Chrome 124 · Windows' },
    })
    expect(identified.confirmKey).toMatch(/^[0-9a-f]{64}$/)
    expect(new Date(identified.desktop.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(await db().loginTicket.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'IDENTIFIED' })
    expect(expectOk(await poll(id))).toEqual({ status: 'SCANNED' })

    expect(expectOk(await confirmRequest(id, identified.confirmKey, { cookie, ...SITE }))).toEqual({ status: 'CONFIRMED' })
    const row = await db().loginTicket.findUniqueOrThrow({ where: { id } })
    expect(row.status).toBe('CONFIRMED')

    const polls = await Promise.all([1, 2, 3, 4].map(() => poll(id)))
    const withToken = polls.map((p) => expectOk(p)).filter((d) => d.token)
    expect(withToken).toHaveLength(1)
    expect(withToken[0].status).toBe('CONSUMED')
    const me = expectOk(await callRoute(profile.GET, { token: withToken[0].token }))
    expect(me).toMatchObject({ id: row.userId, name: who.nickname, oauth: { hasOpenId: true } })
    expect(expectOk(await poll(id))).toEqual({ status: 'CONSUMED' })
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id } })).consumedAt).not.toBeNull()
  })

  it('someone who only read the QR code (its ticket id) cannot take the token: the poll needs the key only the desktop page was given', async () => {
    const t = await newTicket()
    expect(t.pollKey).toMatch(/^[0-9a-f]{64}$/)
    expect(t.scanUrl).not.toContain(t.pollKey)
    expect(t.qrSvg).not.toContain(t.pollKey)
    const other = await newTicket()
    expectOk(await confirmOnPhone(t))
    const NOT_YOURS = '只有生成该二维码的页面可以查询登录结果，请刷新二维码'
    expectFail(await poll(t.id, null), 403, NOT_YOURS)
    expectFail(await poll(t.id, other.pollKey), 403, NOT_YOURS)
    expectFail(await poll(t.id, 'x'.repeat(64)), 403, NOT_YOURS)
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('CONFIRMED')
    const desktop = expectOk(await poll(t.id, t.pollKey))
    expect(desktop).toMatchObject({ status: 'CONSUMED', token: expect.any(String) })
  })

  it('confirms for an existing WeChat user without creating another account', async () => {
    const who = person()
    const existing = await db().user.create({ data: { username: `tk_existing${n}`, name: '已有用户', wxOpenId: who.openid } })
    fake.setPerson(who)
    const t = await newTicket()
    expectOk(await confirmOnPhone(t))
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).userId).toBe(existing.id)
  })

  it('a confirmed or consumed ticket cannot be scanned or confirmed again', async () => {
    const t = await newTicket()
    const { id } = t
    expectOk(await confirmOnPhone(t))
    expectFail(await scan(id), 400, USED)
    const link = await rawCall(authorize.GET, { query: { purpose: 'ticket', ticket: id } })
    expect(link.headers.get('location')).toBe('http://localhost/wx_auth?error=ticket-used')
    expectOk(await poll(id))
    expectFail(await scan(id), 400, USED)
  })

  it('a stale ticket says so on the phone and on the desktop, and cannot be confirmed', async () => {
    const { id } = await newTicket()
    await db().loginTicket.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect(expectOk(await poll(id))).toEqual({ status: 'EXPIRED' })
    expectFail(await scan(id), 400, EXPIRED)
    const link = await rawCall(authorize.GET, { query: { purpose: 'ticket', ticket: id } })
    expect(link.headers.get('location')).toBe('http://localhost/wx_auth?error=ticket-expired')
  })

  it('a ticket that expires while the phone is on WeChat’s page is not confirmed', async () => {
    const t = await newTicket()
    const { id } = t
    const started = await startByLink(linkOf(t))
    const back = await passThroughWechat(started.wechatUrl)
    await db().loginTicket.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expectFail(await finish(back.code!, back.state!, started.cookie), 400, EXPIRED)
    expect(expectOk(await poll(id))).toEqual({ status: 'EXPIRED' })
  })

  it('a confirmed ticket not collected within its 5 minutes expires without a token', async () => {
    const t = await newTicket()
    const { id } = t
    expectOk(await confirmOnPhone(t))
    await db().loginTicket.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect(expectOk(await poll(id))).toEqual({ status: 'EXPIRED' })
  })

  it('an unknown or malformed ticket id is refused', async () => {
    expectFail(await poll('A'.repeat(32)), 404, '二维码不存在，请在电脑上刷新二维码后重新扫描')
    expectFail(await scan('A'.repeat(32)), 404)
    expectFail(await poll('bad id'), 400, /二维码编号格式不正确/)
  })

  it('a snapshot-page phone cannot confirm', async () => {
    const t = await newTicket()
    fake.setPerson(person({ snapshot: true }))
    expectFail(await confirmOnPhone(t), 400, /快照页/)
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING')
  })

  it('limits how many tickets one address creates', async () => {
    const ip = '203.0.113.77'
    for (let i = 0; i < 20; i++) expectOk(await callRoute(ticket.POST, { body: {}, ip }))
    expectFail(await callRoute(ticket.POST, { body: {}, ip }), 429, /^二维码刷新过于频繁/)
  })
})

describe('confirming a QR ticket takes the phone user’s explicit request (no account takeover by link)', () => {
  it('a ticket’s authorize link sent to someone only identifies them: the ticket stays unconfirmed and the desktop gets no token', async () => {
    const attackers = await newTicket()
    const victim = person()
    fake.setPerson(victim)
    // The victim taps the link in WeChat; WeChat OAuth runs (silently for a returning user).
    const data = expectOk(await wechatRoundTrip(startByLink(linkOf(attackers))))
    expect(data.kind).toBe('ticket-identified')
    expect(await db().loginTicket.findUniqueOrThrow({ where: { id: attackers.id } })).toMatchObject({ status: 'IDENTIFIED', consumedAt: null })
    for (let i = 0; i < 3; i++) expect(expectOk(await poll(attackers.id))).toEqual({ status: 'SCANNED' })
  })

  it('the link without the QR code’s sealed desktop details, or with another ticket’s, is refused before WeChat', async () => {
    const t = await newTicket()
    const other = await newTicket()
    const bare = await rawCall(authorize.GET, { query: { purpose: 'ticket', ticket: t.id } })
    expect(bare.headers.get('location')).toBe('http://localhost/wx_auth?error=ticket-invalid')
    const swapped = await rawCall(authorize.GET, { query: { ...linkOf(other), ticket: t.id } })
    expect(swapped.headers.get('location')).toBe('http://localhost/wx_auth?error=ticket-invalid')
    const altered = linkOf(t)
    altered.from = altered.from.slice(0, -2) + (altered.from.endsWith('AA') ? 'BB' : 'AA')
    expect((await rawCall(authorize.GET, { query: altered })).headers.get('location')).toBe('http://localhost/wx_auth?error=ticket-invalid')
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING')
  })

  it('the callback without the details cookie does not identify anyone', async () => {
    const t = await newTicket()
    const started = await startByLink(linkOf(t))
    const back = await passThroughWechat(started.wechatUrl)
    const stateOnly = started.cookie
      .split('; ')
      .filter((c) => c.startsWith('wx_oauth_state='))
      .join('; ')
    expectFail(await finish(back.code!, back.state!, stateOnly), 400, '二维码链接不完整，请用微信扫一扫重新扫描电脑上的二维码')
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING')
  })

  it('confirming needs this browser’s cookie and key and a same-origin request; anything else leaves the ticket IDENTIFIED', async () => {
    const t = await newTicket()
    const { res, cookie, state } = await identifyOnPhone(t)
    const { confirmKey } = expectOk(res)
    const REFUSED = '无法确认这次登录，请用微信重新扫描电脑上的二维码'
    const CROSS_SITE = '请求来源不正确，请在本站页面上操作'

    expectFail(await confirmRequest(t.id, confirmKey, { ...SITE }), 403, REFUSED)
    expectFail(await confirmRequest(t.id, ticketConfirmKey('f'.repeat(48), t.id), { cookie, ...SITE }), 403, REFUSED)
    expectFail(await confirmRequest(t.id, confirmKey, { cookie, origin: 'https://evil.example' }), 403, CROSS_SITE)
    expectFail(await confirmRequest(t.id, confirmKey, { cookie, ...SITE, 'sec-fetch-site': 'cross-site' }), 403, CROSS_SITE)
    expectFail(await confirmRequest(t.id, confirmKey, { cookie }), 403, CROSS_SITE)
    // Another browser's state started for this very ticket (before it was identified) has identified nobody.
    const early = await db().oAuthState.create({ data: { state: 'a'.repeat(48), purpose: 'ticket', ticketId: t.id, expiresAt: new Date(Date.now() + 60_000) } })
    expectFail(await confirmRequest(t.id, ticketConfirmKey(early.state, t.id), { cookie: `wx_oauth_state=${early.state}`, ...SITE }), 403, REFUSED)
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('IDENTIFIED')
    expect(expectOk(await poll(t.id))).toEqual({ status: 'SCANNED' })

    expect(expectOk(await confirmRequest(t.id, confirmKey, { cookie, 'sec-fetch-site': 'same-origin' }))).toEqual({ status: 'CONFIRMED' })
    expectFail(await confirmRequest(t.id, confirmKey, { cookie, ...SITE }), 400, USED)
    expect(state).toMatch(/^[0-9a-f]{48}$/)
  })

  it('a phone that identified one ticket cannot confirm another with its key', async () => {
    const first = await newTicket()
    const second = await newTicket()
    const one = await identifyOnPhone(first)
    const two = await identifyOnPhone(second)
    expectFail(await confirmRequest(second.id, expectOk(one.res).confirmKey, { cookie: one.cookie, ...SITE }), 403)
    expectFail(await confirmRequest(second.id, expectOk(two.res).confirmKey, { cookie: one.cookie, ...SITE }), 403)
    expect((await db().loginTicket.findUniqueOrThrow({ where: { id: second.id } })).status).toBe('IDENTIFIED')
  })

  it('an identified ticket that expires before the phone confirms cannot be confirmed', async () => {
    const t = await newTicket()
    const { res, cookie } = await identifyOnPhone(t)
    await db().loginTicket.update({ where: { id: t.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expectFail(await confirmRequest(t.id, expectOk(res).confirmKey, { cookie, ...SITE }), 400, EXPIRED)
    expect(expectOk(await poll(t.id))).toEqual({ status: 'EXPIRED' })
  })
})

describe('Open Platform qrconnect', () => {
  it('is offered only when the website app credentials are set', async () => {
    expect(expectOk(await callRoute(options.GET)).openPlatform).toBe(false)
    const res = await rawCall(authorize.GET, { query: { purpose: 'open' } })
    expect(res.headers.get('location')).toBe('http://localhost/wx_auth?error=open-missing')
    await configure(admin.token, { WX_OPEN_APP_ID: OPEN.appId, WX_OPEN_APP_SECRET: OPEN.secret })
    expect(expectOk(await callRoute(options.GET)).openPlatform).toBe(true)
  })

  it('redirects to qrconnect (scope snsapi_login) and signs in the account with the same unionid', async () => {
    const who = person({ openidByApp: { [OPEN.appId]: `oWeb_${n}` } })
    const existing = await db().user.create({ data: { username: `qr_existing${n}`, name: '公众号用户', wxOpenId: who.openid, wxUnionId: who.unionid } })
    fake.setPerson(who)
    const started = await startByLink({ purpose: 'open', return: '/account' })
    expect(started.wechatUrl).toBe(
      `${fake.url}/connect/qrconnect?appid=${OPEN.appId}&redirect_uri=http%3A%2F%2Flocalhost%2Fwx_auth&response_type=code&scope=snsapi_login&state=${started.state}#wechat_redirect`,
    )
    // The desktop is not WeChat: the fake's QR page does not ask for it.
    const back = await passThroughWechat(started.wechatUrl, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0')
    const data = expectOk(await finish(back.code!, back.state!, started.cookie))
    expect(data).toMatchObject({ kind: 'login', returnPath: '/account' })
    expect(expectOk(await callRoute(profile.GET, { token: data.token })).id).toBe(existing.id)
    // The website app's openid is not the 公众号's: it is never stored as wxOpenId.
    expect((await db().user.findUniqueOrThrow({ where: { id: existing.id } })).wxOpenId).toBe(who.openid)
  })

  it('creates an account keyed by unionid only, which a later 公众号 sign-in finds', async () => {
    const who = person({ openidByApp: { [OPEN.appId]: `oWeb_${n}` } })
    fake.setPerson(who)
    const data = expectOk(await wechatRoundTrip(startByLink({ purpose: 'open' })))
    const created = await db().user.findUniqueOrThrow({ where: { id: expectOk(await callRoute(profile.GET, { token: data.token })).id } })
    expect(created).toMatchObject({ wxOpenId: null, wxUnionId: who.unionid })
    const inWechat = expectOk(await wechatRoundTrip(startByLink({ purpose: 'login' })))
    expect(expectOk(await callRoute(profile.GET, { token: inWechat.token })).id).toBe(created.id)
    expect((await db().user.findUniqueOrThrow({ where: { id: created.id } })).wxOpenId).toBe(who.openid)
  })

  it('refuses a website-app login without unionid (it could not be matched to anyone)', async () => {
    fake.setPerson(person({ unionid: undefined }))
    const before = await db().user.count()
    expectFail(await wechatRoundTrip(startByLink({ purpose: 'open' })), 400, /未返回 UnionID/)
    expect(await db().user.count()).toBe(before)
  })
})
