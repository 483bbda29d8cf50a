// Consent to the user agreement and privacy policy at sign-up (required for registration in
// China): the account records when it agreed; the pinned register call without the field still
// works (agreement not recorded). The documents come from the site config, with the site's name.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as register from '@/app/api/auth/register/route'
import * as adminUsers from '@/app/api/users/route'
import * as smsLogin from '@/app/api/auth/sms/login/route'
import * as siteConfigItem from '@/app/api/site-config/[name]/route'
import * as legal from '@/app/api/site-config/legal/[kind]/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure } from '../helpers/sign-in'
import { freshMobile, loginWithCode, sendCode } from '../helpers/sms'

const PASSWORD = 'quiet-river-42'
const agreedAt = async (where: { username?: string; mobile?: string }) =>
  (await db().user.findFirstOrThrow({ where, select: { agreedTermsAt: true } })).agreedTermsAt

let admin: Awaited<ReturnType<typeof createUser>>
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
})

describe('POST /api/auth/register', () => {
  it('records the agreement when the form sends agreeTerms: true', async () => {
    const before = Date.now()
    expectOk(await callRoute(register.POST, { body: { username: 'terms_yes', password: PASSWORD, agreeTerms: true } }))
    const at = await agreedAt({ username: 'terms_yes' })
    expect(at).toBeInstanceOf(Date)
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    // The console's user list shows it.
    const { list } = expectOk(await callRoute(adminUsers.GET, { token: admin.token, query: { keyword: 'terms_yes' } }))
    expect(list[0].agreedTermsAt).toBe(at!.toISOString())
  })

  it('keeps the pinned call {username, password} working, with no agreement recorded', async () => {
    const data = expectOk(await callRoute(register.POST, { body: { username: 'terms_api', password: PASSWORD } }))
    expect(Object.keys(data)).toEqual(['token'])
    expect(await agreedAt({ username: 'terms_api' })).toBeNull()
    expectOk(await callRoute(register.POST, { body: { username: 'terms_no', password: PASSWORD, agreeTerms: false } }))
    expect(await agreedAt({ username: 'terms_no' })).toBeNull()
  })

  it('refuses an agreement that is not a boolean', async () => {
    expectFail(
      await callRoute(register.POST, { body: { username: 'terms_bad', password: PASSWORD, agreeTerms: 'yes' } }),
      400,
      '用户协议同意项只能是 true 或 false',
    )
    expect(await db().user.count({ where: { username: 'terms_bad' } })).toBe(0)
  })
})

describe('POST /api/auth/sms/login', () => {
  beforeAll(() => configure(admin.token, { SMS_LOGIN_ENABLED: true, SMS_PROVIDER: 'log' }))

  async function codeFor(mobile: string): Promise<string> {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      expectOk(await sendCode(mobile))
      return log.mock.calls
        .map((c) => String(c[0]))
        .find((l) => l.startsWith(`SMS to ${mobile}: `))!
        .slice(-6)
    } finally {
      log.mockRestore()
    }
  }

  it('records the agreement on the account its first sign-in creates', async () => {
    const mobile = freshMobile()
    expectOk(await callRoute(smsLogin.POST, { body: { mobile, code: await codeFor(mobile), agreeTerms: true }, ip: '192.0.2.200' }))
    expect(await agreedAt({ mobile })).toBeInstanceOf(Date)
  })

  it('without the field creates the account as before, agreement not recorded', async () => {
    const mobile = freshMobile()
    expectOk(await loginWithCode(mobile, await codeFor(mobile)))
    expect(await agreedAt({ mobile })).toBeNull()
  })
})

describe('GET /api/site-config/legal/{kind}', () => {
  afterAll(() => configure(admin.token, { name: 'AI 画室' }))

  it('answers the default texts in paragraphs, naming the site by its configured name', async () => {
    await configure(admin.token, { name: '小画家' })
    const agreement = expectOk(await callRoute(legal.GET, { params: { kind: 'user_agreement' } }))
    expect(agreement.title).toBe('用户协议')
    expect(agreement.siteName).toBe('小画家')
    expect(agreement.paragraphs.length).toBeGreaterThan(3)
    expect(agreement.paragraphs[0]).toMatch(/^欢迎使用小画家。/)
    expect(agreement.paragraphs.join('')).not.toContain('{站点名称}')
    const policy = expectOk(await callRoute(legal.GET, { params: { kind: 'privacy_policy' } }))
    expect(policy.title).toBe('隐私政策')
    expect(policy.paragraphs[0]).toMatch(/^小画家重视你的个人信息保护/)
  })

  it('answers what the operator wrote, as text (markup stays text), and 404 for other names', async () => {
    await configure(admin.token, { USER_AGREEMENT: '第一段 {站点名称}\r\n续行\r\n\r\n<script>alert(1)</script>' })
    const agreement = expectOk(await callRoute(legal.GET, { params: { kind: 'user_agreement' } }))
    expect(agreement.paragraphs).toEqual([`第一段 ${agreement.siteName}\n续行`, '<script>alert(1)</script>'])
    expectFail(await callRoute(legal.GET, { params: { kind: 'BANNED_WORDS' } }), 404)
    expectFail(await callRoute(legal.GET, { params: { kind: 'toString' } }), 404)
  })

  it('cannot be emptied', async () => {
    const res = await callRoute(siteConfigItem.PATCH, { method: 'PATCH', token: admin.token, params: { name: 'PRIVACY_POLICY' }, body: { value: '   ' } })
    expectFail(res, 400, '隐私政策：隐私政策不能为空')
  })
})
