// Invites (docs/PRODUCT.md §17): every user's code, binding an inviter once (never oneself,
// never a ring, every refusal with its reason), the reward, sign-ups through an invite link
// (password and WeChat OAuth creating the account), and the operator's settings.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as commission from '@/app/api/admin/commission/route'
import * as commissionUpdate from '@/app/api/admin/commission/update/route'
import * as relations from '@/app/api/admin/invites/route'
import * as register from '@/app/api/auth/register/route'
import * as smsLogin from '@/app/api/auth/sms/login/route'
import * as wechatTicket from '@/app/api/auth/wechat/ticket/route'
import * as bindInvite from '@/app/api/users/bind_invite/route'
import * as myInvite from '@/app/api/users/my/invite/route'
import { db } from '@/lib/db'
import { startFakeWechat, type FakeWechat } from '../fakes/wechat'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { quickUser } from '../helpers/ledger-fixtures'
import { ledgerMatchesColumns } from '../helpers/payments'
import { configure, finish, passThroughWechat, startByLink, wechatRoundTrip } from '../helpers/sign-in'
import { freshIp, freshMobile, sendCode } from '../helpers/sms'

const MP = { appId: 'wx0123456789abcdef', secret: '0123456789abcdef0123456789abcdef' }

let admin: Awaited<ReturnType<typeof createUser>>
let fake: FakeWechat

beforeAll(async () => {
  fake = await startFakeWechat({ apps: { [MP.appId]: MP.secret }, person: { openid: 'unset', nickname: 'unset' }, redirectHosts: ['localhost'] })
  process.env.WX_API_BASE = fake.url
  process.env.WX_OPEN_BASE = fake.url
  admin = await createUser({ role: 'ADMIN' })
})

afterAll(async () => {
  expect(await ledgerMatchesColumns()).toBe(true)
  await fake.close()
})

const codeOf = async (token: string): Promise<string> => expectOk(await callRoute(myInvite.GET, { token })).code
const bind = (token: string, code: string) => callRoute(bindInvite.POST, { token, body: { code } })
const inviterOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id }, select: { inviterId: true } })).inviterId

describe('GET /api/users/my/invite', () => {
  it('makes a readable code on first view, keeps it, and answers the link, count and earnings', async () => {
    const user = await quickUser()
    const first = expectOk(await callRoute(myInvite.GET, { token: user.token }))
    expect(first).toEqual({
      code: expect.stringMatching(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/),
      link: expect.any(String),
      invitedCount: 0,
      earnings: { balance: 0, points: 0 },
    })
    expect(first.link).toBe(`http://localhost/login?invite=${first.code}`)
    // Two first views at once agree on one code.
    const other = await quickUser()
    const codes = await Promise.all(Array.from({ length: 5 }, () => codeOf(other.token)))
    expect(new Set(codes).size).toBe(1)
    expect(await codeOf(user.token)).toBe(first.code)
    expectFail(await callRoute(myInvite.GET), 401)
  })
})

describe('POST /api/users/bind_invite', () => {
  it('binds once, case-insensitively; the inviter sees the count and the invitee the inviter', async () => {
    const inviter = await quickUser({ name: '老王' })
    const invitee = await quickUser()
    const code = await codeOf(inviter.token)
    const view = expectOk(await bind(invitee.token, ` ${code.toLowerCase()} `))
    expect(view.inviter).toEqual({ name: '老王', boundAt: expect.any(String) })
    expect(await inviterOf(invitee.id)).toBe(inviter.id)
    expect(expectOk(await callRoute(myInvite.GET, { token: inviter.token })).invitedCount).toBe(1)
    // The whole answer, with an inviter and without one.
    const { invitedAt, inviteCode } = await db().user.findUniqueOrThrow({ where: { id: invitee.id }, select: { invitedAt: true, inviteCode: true } })
    const invitees = expectOk(await callRoute(myInvite.GET, { token: invitee.token }))
    expect(invitees).toEqual({
      code: inviteCode,
      link: `http://localhost/login?invite=${inviteCode}`,
      invitedCount: 0,
      earnings: { balance: 0, points: 0 },
      inviter: { name: '老王', boundAt: invitedAt!.toISOString() },
    })
    expect(Object.keys(invitees)).toEqual(['code', 'link', 'invitedCount', 'earnings', 'inviter'])
    expect(expectOk(await callRoute(myInvite.GET, { token: inviter.token }))).toEqual({
      code,
      link: `http://localhost/login?invite=${code}`,
      invitedCount: 1,
      earnings: { balance: 0, points: 0 },
    })

    // A second binding, to anyone, is refused and changes nothing.
    const another = await quickUser()
    expectFail(await bind(invitee.token, await codeOf(another.token)), 409, '你已绑定过邀请人，邀请人只能绑定一次')
    expect(await inviterOf(invitee.id)).toBe(inviter.id)
  })

  it('refuses one’s own code, an unknown code and a malformed one, each saying why', async () => {
    const user = await quickUser()
    expectFail(await bind(user.token, await codeOf(user.token)), 400, '不能填写自己的邀请码')
    expectFail(await bind(user.token, 'ZZZZZZZZ'), 404, '邀请码不存在，请检查后重试')
    expectFail(await bind(user.token, 'abc'), 400, '邀请码格式不正确，应为 8 位字母或数字')
    expectFail(await bind(user.token, ''), 400, /邀请码/)
    expect(await inviterOf(user.id)).toBeNull()
  })

  it('refuses a cycle of three: A invited B, B invited C, A cannot take C (nor B) as inviter', async () => {
    const [a, b, c] = [await quickUser(), await quickUser(), await quickUser()]
    expectOk(await bind(b.token, await codeOf(a.token)))
    expectOk(await bind(c.token, await codeOf(b.token)))
    expectFail(await bind(a.token, await codeOf(c.token)), 400, '对方是你直接或间接邀请的用户，不能绑定为你的邀请人')
    expectFail(await bind(a.token, await codeOf(b.token)), 400, '对方是你直接或间接邀请的用户，不能绑定为你的邀请人')
    expect(await inviterOf(a.id)).toBeNull()
  })

  it('two users binding each other at the same moment: exactly one wins, no ring', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await quickUser(), await quickUser()]
      const [codeA, codeB] = [await codeOf(a.token), await codeOf(b.token)]
      const results = await Promise.all([bind(a.token, codeB), bind(b.token, codeA)])
      expect(results.map((r) => r.status).sort()).toEqual([200, 400])
      expect([await inviterOf(a.id), await inviterOf(b.id)].filter(Boolean)).toHaveLength(1)
    }
  })

  it('a ring of three attempted at once: at most two of the three bindings go through', async () => {
    for (let round = 0; round < 3; round++) {
      const users = [await quickUser(), await quickUser(), await quickUser()]
      const codes = await Promise.all(users.map((u) => codeOf(u.token)))
      await Promise.all(users.map((u, i) => bind(u.token, codes[(i + 1) % 3]!)))
      const bound = (await Promise.all(users.map((u) => inviterOf(u.id)))).filter(Boolean)
      expect(bound).toHaveLength(2)
    }
  })

  it('the invite reward goes to both through the ledger, once', async () => {
    expectOk(await callRoute(commissionUpdate.POST, { token: admin.token, body: { inviteReward: 30 } }))
    const inviter = await quickUser()
    const invitee = await quickUser()
    expectOk(await bind(invitee.token, await codeOf(inviter.token)))
    const points = await db().user.findMany({ where: { id: { in: [inviter.id, invitee.id] } }, select: { points: true } })
    expect(points.map((p) => p.points)).toEqual([30, 30])
    expect(await db().ledgerEntry.count({ where: { kind: 'INVITE_REWARD', reference: { startsWith: `invite:${invitee.id}:` } } })).toBe(2)
    expectOk(await callRoute(commissionUpdate.POST, { token: admin.token, body: { inviteReward: 0 } }))
  })
})

describe('signing up through an invite link', () => {
  it('a password sign-up with the link’s code is bound; an unknown code never stops the sign-up', async () => {
    const inviter = await quickUser()
    const code = await codeOf(inviter.token)
    const username = `inv${Date.now().toString(36)}`
    const { token } = expectOk(
      await callRoute(register.POST, { body: { username, password: 'a-good-password', agreeTerms: true, invite: code.toLowerCase() } }),
    )
    expect(token).toEqual(expect.any(String))
    const created = await db().user.findUniqueOrThrow({ where: { username } })
    expect(created.inviterId).toBe(inviter.id)

    const stray = `inv${Date.now().toString(36)}x`
    expectOk(await callRoute(register.POST, { body: { username: stray, password: 'a-good-password', invite: 'NOSUCH99' } }))
    expect((await db().user.findUniqueOrThrow({ where: { username: stray } })).inviterId).toBeNull()
  })

  it('an SMS sign-in that creates the account binds the link’s inviter', async () => {
    await configure(admin.token, { SMS_LOGIN_ENABLED: true, SMS_PROVIDER: 'log' })
    const inviter = await quickUser()
    const code = await codeOf(inviter.token)
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const mobile = freshMobile()
    let sms: string
    try {
      expectOk(await sendCode(mobile))
      sms = log.mock.calls
        .map((c) => String(c[0]))
        .find((l) => l.startsWith(`SMS to ${mobile}: `))!
        .slice(-6)
    } finally {
      log.mockRestore()
    }
    expectOk(await callRoute(smsLogin.POST, { body: { mobile, code: sms, agreeTerms: true, invite: code }, ip: freshIp() }))
    expect((await db().user.findUniqueOrThrow({ where: { mobile } })).inviterId).toBe(inviter.id)
  })

  it('an account created by WeChat OAuth from an invite link is bound; a returning WeChat user is not rebound', async () => {
    await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: MP.appId, WX_APP_SECRET: MP.secret })
    const inviter = await quickUser()
    const code = await codeOf(inviter.token)
    const openid = `oInv_${Date.now().toString(36)}`
    fake.setPerson({ openid, unionid: `u${openid}`, nickname: '受邀的画家' })
    const state = startByLink({ purpose: 'login', return: '/my/invite', invite: code })
    const outcome = expectOk(await wechatRoundTrip(state))
    expect(outcome).toMatchObject({ token: expect.any(String) })
    const created = await db().user.findUniqueOrThrow({ where: { wxOpenId: openid } })
    expect(created.inviterId).toBe(inviter.id)

    // The same WeChat user signing in again through someone else's link stays with the first inviter.
    const other = await quickUser()
    expectOk(await wechatRoundTrip(startByLink({ purpose: 'login', invite: await codeOf(other.token) })))
    expect(await inviterOf(created.id)).toBe(inviter.id)
  })
  it('the desktop QR login passes the invite on in its QR link; the account the phone creates is bound', async () => {
    await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: MP.appId, WX_APP_SECRET: MP.secret })
    const inviter = await quickUser()
    const code = await codeOf(inviter.token)
    const ticket = expectOk(await callRoute(wechatTicket.POST, { body: {}, query: { invite: code.toLowerCase() }, ip: '198.51.100.77' }))
    const scan = new URL(ticket.scanUrl)
    expect(scan.searchParams.get('invite')).toBe(code)
    const openid = `oTk_${Date.now().toString(36)}`
    fake.setPerson({ openid, unionid: `u${openid}`, nickname: '扫码受邀' })
    const started = await startByLink({ purpose: 'ticket', ticket: ticket.id, from: scan.searchParams.get('from')!, invite: scan.searchParams.get('invite')! })
    const back = await passThroughWechat(started.wechatUrl)
    expect(expectOk(await finish(back.code!, back.state!, started.cookie)).kind).toBe('ticket-identified')
    expect((await db().user.findUniqueOrThrow({ where: { wxOpenId: openid } })).inviterId).toBe(inviter.id)
    // A code that is not one stays out of the link.
    const plain = expectOk(await callRoute(wechatTicket.POST, { body: {}, query: { invite: '"><x' }, ip: '198.51.100.78' }))
    expect(new URL(plain.scanUrl).searchParams.has('invite')).toBe(false)
  })
})

describe('the operator’s settings', () => {
  it('GET answers the defaults; update merges, is ADMIN only, audited, and refuses bad values', async () => {
    expect(expectOk(await callRoute(commission.GET, { token: admin.token }))).toMatchObject({ payAs: 'POINTS', pointsPerYuan: 100, rates: { POINTS: 0 } })
    const manager = await createUser({ role: 'MANAGER' })
    const user = await quickUser()
    expectFail(await callRoute(commissionUpdate.POST, { token: manager.token, body: { payAs: 'BALANCE' } }), 403)
    expectFail(await callRoute(commissionUpdate.POST, { token: user.token, body: { payAs: 'BALANCE' } }), 403)
    expectFail(await callRoute(commission.GET, { token: user.token }), 403)
    expectFail(await callRoute(commissionUpdate.POST, { token: admin.token, body: { rates: { POINTS: 101 } } }), 400, /比例不能超过 100/)
    expectFail(await callRoute(commissionUpdate.POST, { token: admin.token, body: { rates: { POINTS: 2.5 } } }), 400, /整数/)
    expectFail(await callRoute(commissionUpdate.POST, { token: admin.token, body: { payAs: 'CASH' } }), 400, /BALANCE 或 POINTS/)

    expectOk(await callRoute(commissionUpdate.POST, { token: admin.token, body: { rates: { POINTS: 10 } } }))
    const after = expectOk(
      await callRoute(commissionUpdate.POST, { token: admin.token, body: { rates: { MEMBERSHIP: 5 }, payAs: 'BALANCE', pointsPerYuan: 50 } }),
    )
    expect(after).toMatchObject({ rates: { POINTS: 10, MEMBERSHIP: 5, BALANCE: 0 }, payAs: 'BALANCE', pointsPerYuan: 50 })
    expect(await db().adminAuditLog.count({ where: { action: 'commission.update', actorId: admin.id } })).toBeGreaterThanOrEqual(2)
    expect(expectOk(await callRoute(commission.GET, { token: manager.token }))).toEqual(after)
  })

  it('the relations list shows inviter and invitee, newest first, filtered by a name', async () => {
    const inviter = await quickUser({ name: '关系测试人' })
    const invitee = await quickUser()
    expectOk(await bind(invitee.token, await codeOf(inviter.token)))
    const page = expectOk(await callRoute(relations.GET, { token: admin.token, query: { keyword: '关系测试人' } }))
    expect(page.total).toBe(1)
    expect(page.list[0]).toMatchObject({ inviter: { id: inviter.id }, invitee: { id: invitee.id }, orders: 0, commission: { balance: 0, points: 0 } })
  })
})
