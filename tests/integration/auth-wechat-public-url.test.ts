// A production site without PUBLIC_URL: WeChat sign-in is reported as not fully set up
// (its callback and QR codes need the site's registered address), and nothing starts.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import * as authorize from '@/app/api/auth/wechat/authorize/route'
import * as options from '@/app/api/auth/wechat/options/route'
import * as ticket from '@/app/api/auth/wechat/ticket/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { configure, rawCall } from '../helpers/sign-in'

// Read once by lib/env.ts, before anything in this file asks for it.
vi.stubEnv('NODE_ENV', 'production')
vi.stubEnv('EMBEDDED_DATABASE', 'false')
vi.stubEnv('PUBLIC_URL', '')

const MESSAGE = '微信登录尚未配置完成（生产部署需要把环境变量 PUBLIC_URL 设为本站的公开地址，例如 https://your.domain），请联系管理员'

beforeAll(async () => {
  const admin = await createUser({ role: 'ADMIN' })
  await configure(admin.token, { WX_ENABLED: true, WX_APP_ID: 'wx0123456789abcdef', WX_APP_SECRET: '0123456789abcdef0123456789abcdef' })
})
afterAll(() => {
  vi.unstubAllEnvs()
})

it('the options say WeChat is not fully set up, and why', async () => {
  expect(expectOk(await callRoute(options.GET))).toEqual({ available: false, message: MESSAGE, openPlatform: false })
})

it('no authorization or QR ticket starts', async () => {
  const link = await rawCall(authorize.GET, { query: { purpose: 'login' } })
  expect(link.headers.get('location')).toBe('http://localhost/wx_auth?error=no-public-url')
  expectFail(await callRoute(ticket.POST, { body: {} }), 503, MESSAGE)
  expect(await db().oAuthState.count()).toBe(0)
  expect(await db().loginTicket.count()).toBe(0)
})
