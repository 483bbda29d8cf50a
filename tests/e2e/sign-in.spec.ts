import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from '@playwright/test'
import { adminToken, loginThroughUi, registerViaApi, submitPasswordForm, uniqueName, signInWithToken, tokenSignedInAgo } from './support/session'
import { E2E_ALIYUN, E2E_TENCENT, E2E_WECHAT, lastSmsCode, setWechatPerson, wechatAvatarUrl } from './support/sign-in-fakes'

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'

/** Everything this file changes, with the values every other spec expects. */
const DEFAULTS = {
  WX_ENABLED: false,
  WX_APP_ID: '',
  WX_APP_SECRET: '',
  WX_OPEN_APP_ID: '',
  WX_OPEN_APP_SECRET: '',
  SMS_LOGIN_ENABLED: false,
  MOBILE_ENABLED: false,
  SMS_PROVIDER: 'log',
  ALIYUN_ACCESS_KEY_ID: '',
  ALIYUN_ACCESS_KEY_SECRET: '',
  ALIYUN_SMS_SIGN_NAME: '',
  ALIYUN_SMS_TEMPLATE_CODE: '',
  TENCENT_SECRET_ID: '',
  TENCENT_SECRET_KEY: '',
  TENCENT_SMS_SDK_APP_ID: '',
  TENCENT_SMS_SIGN_NAME: '',
  TENCENT_SMS_TEMPLATE_ID: '',
}

async function configure(request: APIRequestContext, settings: Partial<Record<keyof typeof DEFAULTS, string | boolean>>) {
  const token = await adminToken(request)
  for (const [name, value] of Object.entries(settings)) {
    const res = await request.patch(`/api/site-config/${name}`, { data: { value }, headers: { authorization: `Bearer ${token}` } })
    expect(res.ok(), await res.text()).toBeTruthy()
  }
}

const wechatOn = { WX_ENABLED: true, WX_APP_ID: E2E_WECHAT.appId, WX_APP_SECRET: E2E_WECHAT.secret }
// Settings are saved in this order: a provider's keys, then the provider, then what depends on it
// (the site refuses to turn SMS on, or to switch providers, while SMS could not be sent).
const aliyunOn = {
  ALIYUN_ACCESS_KEY_ID: E2E_ALIYUN.accessKeyId,
  ALIYUN_ACCESS_KEY_SECRET: E2E_ALIYUN.accessKeySecret,
  ALIYUN_SMS_SIGN_NAME: E2E_ALIYUN.signName,
  ALIYUN_SMS_TEMPLATE_CODE: E2E_ALIYUN.templateCode,
  SMS_PROVIDER: 'aliyun',
  SMS_LOGIN_ENABLED: true,
}
const tencentOn = {
  TENCENT_SECRET_ID: E2E_TENCENT.secretId,
  TENCENT_SECRET_KEY: E2E_TENCENT.secretKey,
  TENCENT_SMS_SDK_APP_ID: E2E_TENCENT.sdkAppId,
  TENCENT_SMS_SIGN_NAME: E2E_TENCENT.signName,
  TENCENT_SMS_TEMPLATE_ID: E2E_TENCENT.templateId,
  SMS_PROVIDER: 'tencent',
}

/** A phone inside WeChat: its user agent and a phone-sized screen. */
const wechatPhone = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ userAgent: WECHAT_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

let seq = 0
const freshMobile = () => `137${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq).padStart(2, '0')}`
const person = async (nickname: string) => {
  const id = uniqueName('wx')
  return { openid: `o_${id}`, unionid: `u_${id}`, nickname, headimgurl: await wechatAvatarUrl(id) }
}

test.afterAll(async ({ request }) => {
  await configure(request, DEFAULTS)
})

test('inside WeChat, a visitor signs in through WeChat OAuth and comes back signed in', async ({ browser, request }) => {
  await configure(request, wechatOn)
  const who = await person('微信小画家')
  await setWechatPerson(who)
  const phone = await wechatPhone(browser)
  const page = await phone.newPage()

  await page.goto('/login?redirect=%2Faccount')
  await page.getByRole('link', { name: /微信登录/ }).click()
  // /login_by_wechat: the terms notice, then one tap to WeChat's page, which (the fake) agrees and sends the browser to /wx_auth.
  await expect(page.getByTestId('terms-notice')).toContainText('用户协议')
  await page.getByRole('link', { name: '微信授权登录' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('account-balance')).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^Bearer /)
  // On a phone the user menu shows only the avatar: WeChat's.
  const menuButton = page.locator('button[aria-haspopup="menu"]')
  await expect(menuButton.locator('img')).toHaveAttribute('src', who.headimgurl)
  await menuButton.click()
  await expect(page.getByRole('menu').getByText('微信小画家')).toBeVisible()
  await phone.close()
})

test('a signed-in user opening the site in WeChat has WeChat bound by the start-up rule', async ({ browser, request }) => {
  await configure(request, wechatOn)
  await setWechatPerson(await person('绑定用的微信'))
  const user = await registerViaApi(request)
  const phone = await wechatPhone(browser)
  const page = await phone.newPage()
  await signInWithToken(page, user.token)

  await page.goto('/account')
  await expect(page.getByText('微信绑定成功')).toBeVisible()
  await expect(page).toHaveURL(/\/account$/)
  const me = await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()
  expect(me.data.oauth).toEqual({ hasOpenId: true })
  expect(me.data.name).toBe(user.username)

  // Bound now: further pages stay put.
  await page.goto('/profile')
  await expect(page.getByRole('heading', { name: '个人资料' })).toBeVisible()
  await expect(page.getByText('已绑定')).toBeVisible()
  await phone.close()
})

test('a session signed in long ago opening the site in WeChat binds WeChat only after signing in again', async ({ browser, request }) => {
  await configure(request, wechatOn)
  await setWechatPerson(await person('旧会话的微信'))
  const user = await registerViaApi(request)
  const old = await tokenSignedInAgo(request, user.token, 11)
  const phone = await wechatPhone(browser)
  const page = await phone.newPage()
  await signInWithToken(page, old)

  // The start-up rule tries, is refused quietly and stays out of the way for this visit.
  await page.goto('/account')
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('wx_declined'))).toBe('1')
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('account-balance')).toBeVisible()
  const profileOf = async (token: string) => (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${token}` } })).json()).data
  expect((await profileOf(user.token)).oauth).toEqual({ hasOpenId: false })

  // Signing in again in the same tab makes the session recent, and the start-up rule binds at once.
  await loginThroughUi(page, user.username, user.password)
  await expect(page.getByText('微信绑定成功')).toBeVisible()
  expect((await profileOf(user.token)).oauth).toEqual({ hasOpenId: true })
  await phone.close()
})

test('the desktop QR login completes from a phone in WeChat, once', async ({ browser, page, request }) => {
  await configure(request, wechatOn)
  await setWechatPerson(await person('扫码的人'))

  await page.goto('/login_by_wechat?redirect=%2Fprofile')
  const qr = page.getByRole('img', { name: '微信登录二维码' })
  await expect(qr).toBeVisible()
  await expect(page.getByText('请使用微信扫一扫登录')).toBeVisible()
  const scanUrl = (await qr.getAttribute('data-scan-url'))!
  expect(scanUrl).toMatch(/\/wx_auth\?ticket=[A-Za-z0-9_-]{32}&from=[A-Za-z0-9_-]+$/)
  // One of the desktop's polls is lost (a 502 while the site restarts, say): it goes on asking.
  const lostPoll = page.waitForResponse((r) => r.url().includes('/api/auth/wechat/ticket/') && r.status() === 502)
  let lost = false
  await page.route('**/api/auth/wechat/ticket/*', (route) => {
    if (lost || route.request().method() !== 'GET') return route.fallback()
    lost = true
    return route.fulfill({ status: 502, body: 'Bad Gateway' })
  })
  await lostPoll

  const phone = await wechatPhone(browser)
  const handset = await phone.newPage()
  await handset.goto(scanUrl)
  // The phone goes through WeChat OAuth (the fake agrees at once), which only says who holds it;
  // then it shows where the login was started and waits for an explicit 确认登录.
  const confirm = handset.getByRole('button', { name: '确认登录' })
  await expect(confirm).toBeVisible()
  await expect(handset.getByRole('heading', { name: '登录确认' })).toBeVisible()
  await expect(handset.getByText('扫码的人')).toBeVisible()
  await expect(handset.getByTestId('ticket-desktop-ip')).toHaveText(/127\.0\.0\.1|::1/)
  await expect(handset.getByTestId('ticket-desktop-browser')).toContainText('Chrome')
  await expect(handset.getByTestId('ticket-desktop-created')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  await expect(handset.getByRole('note')).toContainText('请不要确认')
  await expect(page.getByText('已扫码，请在手机上确认登录')).toBeVisible()
  // Identified is not confirmed: the desktop is still waiting.
  await expect(page).toHaveURL(/\/login_by_wechat/)
  // Someone who read the QR code off the screen cannot poll for the token: only the desktop page has the key.
  const onlooker = await request.get(`/api/auth/wechat/ticket/${new URL(scanUrl).searchParams.get('ticket')}`)
  expect(onlooker.status()).toBe(403)
  await confirm.click()
  await expect(handset.getByRole('heading', { name: '已确认登录' })).toBeVisible()

  await expect(page).toHaveURL(/\/profile$/)
  await expect(page.getByRole('heading', { name: '个人资料' })).toBeVisible()
  await expect(page.getByRole('button', { name: '扫码的人' })).toBeVisible()
  await page.unrouteAll({ behavior: 'ignoreErrors' })

  // The same code again: the phone is told it is used up.
  await handset.goto(scanUrl)
  await expect(handset.getByText('二维码已使用，请在电脑上刷新二维码后重新扫描')).toBeVisible()
  await phone.close()
})

test('a stale QR code says so on the desktop and refreshes', async ({ page, request }) => {
  await configure(request, wechatOn)
  await page.clock.install()
  await page.goto('/login_by_wechat')
  const qr = page.getByRole('img', { name: '微信登录二维码' })
  await expect(qr).toBeVisible()
  const first = await qr.getAttribute('data-scan-url')
  await page.clock.fastForward('05:01')
  await expect(page.getByText('二维码已过期', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: '刷新二维码' }).click()
  await expect(page.getByText('请使用微信扫一扫登录')).toBeVisible()
  await expect(qr).not.toHaveAttribute('data-scan-url', first!)
})

test('SMS fast login with the code the provider delivered, creating the account', async ({ page, request }) => {
  await configure(request, aliyunOn)
  const mobile = freshMobile()
  await page.goto('/login')
  await page.getByRole('link', { name: /手机验证码登录/ }).click()
  await expect(page).toHaveURL(/\/login\/fastlogin$/)

  await page.getByLabel('手机号').fill('12345')
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect(page.getByText('请输入 11 位中国大陆手机号')).toBeVisible()

  await page.getByLabel('手机号').fill(mobile)
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect(page.getByText('验证码已发送', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: /重新获取 \(\d+s\)/ })).toBeDisabled()
  const code = await lastSmsCode('aliyun', mobile)

  await page.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000')
  // The first sign-in creates the account: the consent to the terms is part of the form.
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check()
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page.getByText(/^验证码错误，还可尝试 4 次$/)).toBeVisible()

  await page.getByLabel('验证码').fill(code)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
  await expect(page.getByRole('button', { name: `用户${mobile.slice(-4)}` })).toBeVisible()

  // The account has no password yet: right after signing in it sets one, 当前密码 left empty,
  // and then signs in with its username (the page names it) and that password elsewhere.
  await page.goto('/profile')
  const hint = page.getByText(/还没有密码的账号：当前密码留空/)
  await expect(hint).toBeVisible()
  const username = /用户名 (\S+) 和密码/.exec((await hint.textContent()) ?? '')![1]!
  await page.getByLabel('新密码', { exact: true }).fill('phone-user-pass-1')
  await page.getByLabel('确认新密码').fill('phone-user-pass-1')
  await page.getByRole('button', { name: '修改密码' }).click()
  await expect(page.getByText('密码已修改，其他设备需要重新登录')).toBeVisible()
  const elsewhere = await page.context().browser()!.newPage()
  try {
    await loginThroughUi(elsewhere, username, 'phone-user-pass-1')
    await expect(elsewhere.getByRole('button', { name: `用户${mobile.slice(-4)}` })).toBeVisible()
  } finally {
    await elsewhere.close()
  }
})

test('a session signed in long ago is asked to sign in again before binding a phone, then binds it', async ({ page, request }) => {
  await configure(request, { ...tencentOn, MOBILE_ENABLED: false })
  const user = await registerViaApi(request)
  const old = await tokenSignedInAgo(request, user.token, 11)
  await signInWithToken(page, old)
  await page.goto('/profile')
  await page.getByRole('link', { name: '去绑定' }).click()
  await expect(page).toHaveURL(/\/bind_mobile\?redirect=%2Fprofile$/)

  const mine = freshMobile()
  await page.getByLabel('手机号').fill(mine)
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect(page.getByRole('alert').filter({ hasText: '防止他人借用你的登录状态' })).toBeVisible()
  await expect(page.getByRole('button', { name: '获取验证码' })).toHaveCount(0)

  await page.getByRole('button', { name: '重新登录' }).click()
  await expect(page).toHaveURL(/\/login\?redirect=%2Fbind_mobile%3Fredirect%3D%252Fprofile$/)
  await page.getByRole('link', { name: /账号密码登录/ }).click()
  await submitPasswordForm(page, user.username, user.password)
  await expect(page).toHaveURL(/\/profile$/)

  await page.getByRole('link', { name: '去绑定' }).click()
  await page.getByLabel('手机号').fill(mine)
  await page.getByRole('button', { name: '获取验证码' }).click()
  await page.getByLabel('验证码').fill(await lastSmsCode('tencent', mine))
  await page.getByRole('button', { name: '绑定', exact: true }).click()
  await expect(page.getByText('手机号绑定成功')).toBeVisible()
  await expect(page).toHaveURL(/\/profile$/)
  // Only this browser signed in again: the old session elsewhere was not ended.
  const me = await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${old}` } })).json()
  expect(me.data.mobile).toBe(mine)
})

test('with mobile binding required, a user without a phone is sent to /bind_mobile, binds one and carries on', async ({ page, request }) => {
  await configure(request, { ...tencentOn, MOBILE_ENABLED: true })
  try {
    const taken = freshMobile()
    const other = await registerViaApi(request)
    await request.post('/api/auth/sms/send', { data: { mobile: taken, purpose: 'bind' }, headers: { authorization: `Bearer ${other.token}` } })
    const bound = await request.post('/api/users/bind_mobile', {
      data: { mobile: taken, code: await lastSmsCode('tencent', taken) },
      headers: { authorization: `Bearer ${other.token}` },
    })
    expect(bound.ok(), await bound.text()).toBeTruthy()

    const user = await registerViaApi(request)
    await signInWithToken(page, user.token)
    await page.goto('/text2img')
    await expect(page).toHaveURL(/\/bind_mobile\?redirect=%2Ftext2img$/)
    await expect(page.getByText('根据本站要求，请先绑定手机号后继续使用')).toBeVisible()

    // A phone that belongs to someone else is refused before any code is sent.
    await page.getByLabel('手机号').fill(taken)
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText('该手机号已绑定其他账号，不能重复绑定')).toBeVisible()

    const mine = freshMobile()
    await page.getByLabel('手机号').fill(mine)
    await page.getByRole('button', { name: '获取验证码' }).click()
    await page.getByLabel('验证码').fill(await lastSmsCode('tencent', mine))
    await page.getByRole('button', { name: '绑定', exact: true }).click()
    await expect(page.getByText('手机号绑定成功')).toBeVisible()
    await expect(page).toHaveURL(/\/text2img$/)

    // No loop: other pages stay put now.
    await page.goto('/account')
    await expect(page.getByTestId('account-balance')).toBeVisible()
    await expect(page).toHaveURL(/\/account$/)
    const me = await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()
    expect(me.data.mobile).toBe(mine)

    // The admin has no phone either: sent to bind on the site, but the console stays open
    // (were SMS set up wrong, no one could bind, and this switch is there).
    await signInWithToken(page, await adminToken(request))
    await page.goto('/text2img')
    await expect(page).toHaveURL(/\/bind_mobile\?redirect=%2Ftext2img$/)
    await page.getByRole('link', { name: '进入管理后台' }).click()
    await expect(page).toHaveURL(/\/admin$/)
    await page.goto('/admin/site_config')
    await expect(page.getByText('要求绑定手机号').first()).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/site_config$/)
  } finally {
    await configure(request, { MOBILE_ENABLED: false })
  }
})
