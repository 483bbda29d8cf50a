import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { adminToken, registerViaApi, uniqueName, signInWithToken } from './support/session'
import { E2E_ALIYUN, lastSmsCode } from './support/sign-in-fakes'
import { at } from '../helpers/present'

const CONSENT = '我已阅读并同意《用户协议》和《隐私政策》'

async function configure(request: APIRequestContext, settings: Record<string, string | boolean>) {
  const token = await adminToken(request)
  for (const [name, value] of Object.entries(settings)) {
    const res = await request.patch(`/api/site-config/${name}`, { data: { value }, headers: { authorization: `Bearer ${token}` } })
    expect(res.ok(), await res.text()).toBeTruthy()
  }
}

/** The console's row of a user (it shows when the user agreed to the terms). */
async function consoleRow(
  request: APIRequestContext,
  keyword: string,
): Promise<{ username: string; mobile: string | null; agreedTermsAt: string | null } | undefined> {
  const res = await request.get('/api/users', { params: { keyword }, headers: { authorization: `Bearer ${await adminToken(request)}` } })
  return (await res.json()).data.list[0]
}

// Saved in this order: the provider's keys, the provider, then SMS sign-in (the site refuses a switch SMS could not serve).
const aliyunOn = {
  ALIYUN_ACCESS_KEY_ID: E2E_ALIYUN.accessKeyId,
  ALIYUN_ACCESS_KEY_SECRET: E2E_ALIYUN.accessKeySecret,
  ALIYUN_SMS_SIGN_NAME: E2E_ALIYUN.signName,
  ALIYUN_SMS_TEMPLATE_CODE: E2E_ALIYUN.templateCode,
  SMS_PROVIDER: 'aliyun',
  SMS_LOGIN_ENABLED: true,
}
const smsOff = {
  SMS_LOGIN_ENABLED: false,
  MOBILE_ENABLED: false,
  SMS_PROVIDER: 'log',
  ALIYUN_ACCESS_KEY_ID: '',
  ALIYUN_ACCESS_KEY_SECRET: '',
  ALIYUN_SMS_SIGN_NAME: '',
  ALIYUN_SMS_TEMPLATE_CODE: '',
}

/**
 * This site is a production deployment, where the `log` provider is refused: the send-code
 * answer of a trial site (provider: 'log', see auth-sms.test.ts) is played to the page instead.
 */
async function answerAsTrialSite(page: Page) {
  await page.route('**/api/auth/sms/send', (route) =>
    route.fulfill({ json: { success: true, data: { resendAfterSeconds: 60, expiresInSeconds: 300, provider: 'log' } } }),
  )
}

let seq = 0
const freshMobile = () => `136${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq).padStart(2, '0')}`

test.describe('consent to the user agreement and privacy policy', () => {
  test.afterAll(async ({ request }) => {
    await configure(request, { ...smsOff, icp: '' })
  })

  test('sign-up cannot be sent unticked; ticked, the account is created with the agreement recorded', async ({ page, request }) => {
    const username = uniqueName('agree')
    await page.goto('/login_by_password?mode=register')
    await page.getByLabel('用户名').fill(username)
    await page.getByLabel('密码', { exact: true }).fill('a-fine-password')
    await page.getByLabel('确认密码').fill('a-fine-password')
    const consent = page.getByRole('checkbox', { name: CONSENT })
    await expect(consent).not.toBeChecked()

    const registers: string[] = []
    page.on('request', (r) => r.url().endsWith('/api/auth/register') && registers.push(r.postData() ?? ''))
    await page.getByRole('button', { name: '注册并登录' }).click()
    await expect(page.getByText('请先阅读并勾选同意《用户协议》和《隐私政策》', { exact: true })).toBeVisible()
    await expect(page).toHaveURL(/\/login_by_password\?mode=register$/)
    expect(registers).toEqual([])
    expect(await consoleRow(request, username)).toBeUndefined()

    // The documents open in a new tab, so the form keeps what was typed.
    const [agreement] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: '《用户协议》' }).click()])
    await expect(agreement).toHaveURL(/\/user_agreement$/)
    await expect(agreement.getByRole('heading', { name: /用户协议$/ })).toBeVisible()
    await expect(agreement.getByText(/^欢迎使用.+。在注册或使用本站服务前/)).toBeVisible()
    await agreement.getByRole('link', { name: '《隐私政策》' }).click()
    await expect(agreement.getByRole('heading', { name: /隐私政策$/ })).toBeVisible()
    await agreement.close()
    await expect(page.getByLabel('用户名')).toHaveValue(username)

    await consent.check()
    await page.getByRole('button', { name: '注册并登录' }).click()
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
    expect(JSON.parse(at(registers, 0))).toMatchObject({ username, agreeTerms: true })
    const row = await consoleRow(request, username)
    expect(row?.agreedTermsAt).toEqual(expect.any(String))
    expect(Date.now() - Date.parse(row!.agreedTermsAt!)).toBeLessThan(60_000)
  })

  test('the SMS sign-in shows the same consent, records it on the account it creates, and a trial site says where the code went', async ({ page, request }) => {
    await configure(request, aliyunOn)
    const mobile = freshMobile()
    await page.goto('/login/fastlogin')
    await page.getByLabel('手机号').fill(mobile)

    // A real provider: the code went to the phone.
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText(`验证码已发送至 ${mobile.slice(0, 3)} **** ${mobile.slice(-4)}，5 分钟内有效`)).toBeVisible()
    await page.getByLabel('验证码').fill(await lastSmsCode('aliyun', mobile))
    await page.getByRole('button', { name: '登录', exact: true }).click()
    await expect(page.getByText('请先阅读并勾选同意《用户协议》和《隐私政策》', { exact: true })).toBeVisible()
    await page.getByRole('checkbox', { name: CONSENT }).check()
    await page.getByRole('button', { name: '登录', exact: true }).click()
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
    const row = await consoleRow(request, mobile)
    expect(row?.mobile).toBe(mobile)
    expect(row?.agreedTermsAt).toEqual(expect.any(String))

    // A trial site (the log provider): the page says so instead of 验证码已发送.
    await page.evaluate(() => localStorage.clear())
    await answerAsTrialSite(page)
    await page.goto('/login/fastlogin')
    await page.getByLabel('手机号').fill(freshMobile())
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText('试用站点：验证码已写入服务器日志', { exact: true })).toBeVisible()
    await expect(page.getByText(/^试用站点：验证码已写入服务器日志（本站未接入短信服务，不会发出短信），5 分钟内有效$/)).toBeVisible()
    await expect(page.getByText('验证码已发送', { exact: true })).toHaveCount(0)
  })

  test('/profile 去绑定 on a trial site says where the code went', async ({ page, request }) => {
    await configure(request, aliyunOn)
    const user = await registerViaApi(request)
    await signInWithToken(page, user.token)
    await answerAsTrialSite(page)
    await page.goto('/profile')
    await page.getByRole('link', { name: '去绑定' }).click()
    await expect(page).toHaveURL(/\/bind_mobile\?redirect=%2Fprofile$/)
    await page.getByLabel('手机号').fill(freshMobile())
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect(page.getByText('试用站点：验证码已写入服务器日志', { exact: true })).toBeVisible()
    await expect(page.getByText(/^试用站点：验证码已写入服务器日志（/)).toBeVisible()
  })

  test('the footer links the documents and the ICP number to the MIIT filing system', async ({ page, request }) => {
    await configure(request, { icp: '京ICP备00000000号-1' })
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('link', { name: '京ICP备00000000号-1' })).toHaveAttribute('href', 'https://beian.miit.gov.cn/')
    await footer.getByRole('link', { name: '隐私政策' }).click()
    await expect(page).toHaveURL(/\/privacy_policy$/)
    await expect(page.getByText(/重视你的个人信息保护/)).toBeVisible()
  })
})
