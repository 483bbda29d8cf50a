// Money in, as a user and an operator see it: buying on /account with WeChat NATIVE (QR),
// inside WeChat with JSAPI (the bridge stubbed), with WeChat H5 in a phone browser, with Alipay
// page pay (away and back, to /account or to the page the 积分不足 dialog opened over), the
// 积分不足 dialog on /text2img, and the order and its revenue in the console.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { asAdmin, makeMember, registerViaApi, signInWithToken, uniqueName } from './support/session'
import { enablePayments, payWechatOrder, setWechatRefundAnswer } from './support/payment-fakes'
import { E2E_WECHAT, setWechatPerson, wechatAvatarUrl } from './support/sign-in-fakes'

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'

test.beforeAll(async ({ request }) => enablePayments(request))

/** A points pack on sale, made through the admin API; its name is unique to the test. */
async function pointsPack(request: APIRequestContext, points: number, price: number): Promise<{ id: string; name: string }> {
  const name = uniqueName(`${points}积分包`)
  const res = await request.post('/api/admin/products', {
    headers: await asAdmin(request),
    data: { type: 'POINTS', name, description: 'e2e', price, points, enabled: true, sort: 0 },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
  return { id: (await res.json()).data.id, name }
}

async function newUser(page: Page, request: APIRequestContext) {
  const user = await registerViaApi(request)
  await signInWithToken(page, user.token)
  return user
}

/** Picks a points pack and a way to pay in the 充值 form of /account. */
async function choose(page: Page, productName: string, channel: '微信支付' | '支付宝') {
  await page.getByRole('tab', { name: '积分包' }).click()
  await page
    .getByTestId('recharge-form')
    .getByRole('radio', { name: new RegExp(productName) })
    .click()
  await page.getByRole('radiogroup', { name: '支付方式' }).getByRole('radio', { name: channel }).click()
}

test('a user buys a points pack on /account with a WeChat QR code and sees the points arrive', async ({ page, request }) => {
  const pack = await pointsPack(request, 1000, 990)
  await newUser(page, request)
  await page.goto('/account')
  const before = Number(await page.getByTestId('account-points').textContent())
  await choose(page, pack.name, '微信支付')
  await expect(page.getByText('应付 ¥9.90')).toBeVisible()
  await page.getByRole('button', { name: '立即支付' }).click()

  const dialog = page.getByRole('dialog', { name: '支付' })
  await expect(dialog.getByRole('img', { name: '微信支付二维码' })).toBeVisible()
  const code = await dialog.getByTestId('pay-qr').getAttribute('data-code')
  expect(code).toMatch(/^weixin:\/\//)
  const outTradeNo = await dialog.getByTestId('pay-pending').getAttribute('data-out-trade-no')
  await payWechatOrder(outTradeNo!)

  await expect(dialog.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await expect(dialog.getByTestId('pay-success-wallet')).toContainText(String(before + 1000))
  await dialog.getByRole('button', { name: '完成' }).click()
  await expect(page.getByTestId('account-points')).toHaveText(String(before + 1000))
  const history = page.getByRole('table').filter({ hasText: outTradeNo! })
  await expect(history.getByText('成功')).toBeVisible()
})

test('立即支付 again after a failure: the same order when no answer came, a new one when the provider refused', async ({ page, request }) => {
  const pack = await pointsPack(request, 100, 100)
  await newUser(page, request)
  await page.goto('/account')
  await choose(page, pack.name, '微信支付')
  const keys: string[] = []
  let tries = 0
  await page.route('**/api/orders', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback()
    keys.push((await route.request().allHeaders())['idempotency-key'] ?? '')
    tries++
    // First no answer at all; then the answer of an order the provider refused (made, and FAIL).
    if (tries === 1) return route.abort('failed')
    if (tries === 2) return route.fulfill({ status: 503, json: { success: false, data: null, errMessage: '微信支付下单失败，请稍后再试' } })
    return route.fallback()
  })
  const pay = page.getByRole('button', { name: '立即支付' })
  await pay.click()
  await expect(page.getByText('网络异常，请检查网络或联系管理员')).toBeVisible()
  await pay.click()
  await expect(page.getByText('微信支付下单失败，请稍后再试')).toBeVisible()
  await pay.click()
  await expect(page.getByRole('dialog', { name: '支付' }).getByRole('img', { name: '微信支付二维码' })).toBeVisible()
  expect(keys).toHaveLength(3)
  expect(keys[1]).toBe(keys[0])
  expect(keys[2]).not.toBe(keys[1])
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('取消 on an order paid a moment ago says it was paid, and the points are there', async ({ page, request }) => {
  const pack = await pointsPack(request, 300, 300)
  const user = await newUser(page, request)
  const created = await request.post('/api/orders', {
    headers: { authorization: `Bearer ${user.token}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { type: 'POINTS', productId: pack.id, channel: 'WECHAT', tradeType: 'NATIVE' },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const { outTradeNo } = (await created.json()).data.order
  await page.goto('/account')
  const before = Number(await page.getByTestId('account-points').textContent())
  const row = page.getByRole('row').filter({ hasText: outTradeNo })
  await expect(row.getByText('待支付')).toBeVisible()
  // Paid at WeChat, its notification lost: the page still offers 取消.
  await payWechatOrder(outTradeNo, { notify: false })
  await row.getByRole('button', { name: '取消' }).click()
  await expect(page.getByText('订单已支付，无需取消')).toBeVisible()
  await expect(page.getByTestId('account-points')).toHaveText(String(before + 300))
  await expect(row.getByText('成功')).toBeVisible()
})

test.describe('inside WeChat', () => {
  test.use({ userAgent: WECHAT_UA })

  /** A WeixinJSBridge that answers `answer`, recording what it was asked. */
  async function stubBridge(page: Page, answer: string) {
    await page.addInitScript((errMsg) => {
      const calls: unknown[] = []
      Object.assign(window, {
        __bridgeCalls: calls,
        WeixinJSBridge: {
          invoke: (name: string, params: unknown, cb: (res: { err_msg: string }) => void) => {
            calls.push({ name, params })
            setTimeout(() => cb({ err_msg: errMsg }), 50)
          },
        },
      })
    }, answer)
  }

  /**
   * Signs in through WeChat OAuth (the fake agrees at once), so the user has an openid; the fake
   * OAuth knows only the sign-in AppID, so payments are switched on again afterwards (JSAPI needs
   * WX_APP_ID to be the paying AppID).
   */
  async function wechatUser(page: Page, request: APIRequestContext) {
    const headers = await asAdmin(request)
    for (const [name, value] of Object.entries({ WX_APP_ID: E2E_WECHAT.appId, WX_APP_SECRET: E2E_WECHAT.secret, WX_ENABLED: true })) {
      const res = await request.patch(`/api/site-config/${name}`, { headers, data: { value } })
      expect(res.ok(), await res.text()).toBeTruthy()
    }
    const id = uniqueName('wxpay')
    await setWechatPerson({ openid: `o_${id}`, unionid: `u_${id}`, nickname: '微信买家', headimgurl: await wechatAvatarUrl(id) })
    await page.goto('/login?redirect=%2Faccount')
    await page.getByRole('link', { name: /微信登录/ }).click()
    await page.getByRole('link', { name: '微信授权登录' }).click()
    await expect(page).toHaveURL(/\/account$/)
    await enablePayments(request)
  }

  test.afterAll(async ({ request }) => {
    await request.patch('/api/site-config/WX_ENABLED', { headers: await asAdmin(request), data: { value: false } })
  })

  test('JSAPI: the bridge opens with the order signature; paid, the page says so', async ({ page, request }) => {
    const pack = await pointsPack(request, 300, 300)
    await stubBridge(page, 'get_brand_wcpay_request:ok')
    await wechatUser(page, request)
    await page.goto('/account')
    await choose(page, pack.name, '微信支付')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/orders') && r.request().method() === 'POST')
    await page.getByRole('button', { name: '立即支付' }).click()
    const order = (await (await created).json()).data
    expect(order.order.tradeType).toBe('JSAPI')
    expect(order.payment.jsapi).toMatchObject({ package: expect.stringMatching(/^prepay_id=/), signType: 'RSA' })
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __bridgeCalls: { name: string }[] }).__bridgeCalls.map((c) => c.name)))
      .toEqual(['getBrandWCPayRequest'])
    await payWechatOrder(order.order.outTradeNo)
    await expect(page.getByRole('dialog', { name: '支付' }).getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  })

  test('JSAPI: anything but ok from the bridge is the alert 支付失败, and the order stays pending', async ({ page, request }) => {
    const pack = await pointsPack(request, 300, 300)
    await stubBridge(page, 'get_brand_wcpay_request:cancel')
    await wechatUser(page, request)
    await page.goto('/account')
    await choose(page, pack.name, '微信支付')
    const alert = page.waitForEvent('dialog')
    await page.getByRole('button', { name: '立即支付' }).click()
    const shown = await alert
    expect(shown.message()).toBe('支付失败')
    await shown.accept()
    const dialog = page.getByRole('dialog', { name: '支付' })
    // The sheet can be opened again from the dialog.
    const again = page.waitForEvent('dialog')
    await dialog.getByRole('button', { name: '前往微信支付' }).click()
    await (await again).accept()
    await expect.poll(() => page.evaluate(() => (window as unknown as { __bridgeCalls: { name: string }[] }).__bridgeCalls.length)).toBe(2)
    await dialog.getByRole('button', { name: '稍后支付' }).click()
    await expect(page.getByRole('table').getByText('待支付')).toBeVisible()
  })
})

test('Alipay page pay: away to the cashier and back to /account, which shows the outcome', async ({ page, request }) => {
  const pack = await pointsPack(request, 500, 500)
  await newUser(page, request)
  await page.goto('/account')
  const before = Number(await page.getByTestId('account-points').textContent())
  await choose(page, pack.name, '支付宝')
  await page.getByRole('radiogroup', { name: '支付宝支付方式' }).getByRole('radio', { name: '跳转支付宝网页' }).click()
  await page.getByRole('button', { name: '立即支付' }).click()
  await page.getByRole('button', { name: '确认付款' }).click()
  await expect(page).toHaveURL(/\/account\?order=/)
  const dialog = page.getByRole('dialog', { name: '支付' })
  await expect(dialog.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await dialog.getByRole('button', { name: '完成' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('account-points')).toHaveText(String(before + 500))
})

test('继续支付 on an Alipay page-pay order left unpaid goes back to the cashier, and the points arrive', async ({ page, request }) => {
  const pack = await pointsPack(request, 600, 600)
  const user = await newUser(page, request)
  const created = await request.post('/api/orders', {
    headers: { authorization: `Bearer ${user.token}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { type: 'POINTS', productId: pack.id, channel: 'ALIPAY', alipayMethod: 'page', returnPath: '/account' },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const { outTradeNo } = (await created.json()).data.order
  await page.goto('/account')
  const before = Number(await page.getByTestId('account-points').textContent())
  await page.getByRole('row').filter({ hasText: outTradeNo }).getByRole('button', { name: '继续支付' }).click()
  await page.getByRole('dialog', { name: '支付' }).getByRole('button', { name: '前往支付宝支付' }).click()
  await page.getByRole('button', { name: '确认付款' }).click()
  await expect(page).toHaveURL(/\/account\?order=/)
  await expect(page.getByRole('dialog', { name: '支付' }).getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await page.getByRole('dialog', { name: '支付' }).getByRole('button', { name: '完成' }).click()
  await expect(page.getByTestId('account-points')).toHaveText(String(before + 600))
})

test.describe('in a phone browser', () => {
  test.use({ userAgent: PHONE_UA })

  test('WeChat H5 (MWEB): away to WeChat and back to /account, which shows the outcome', async ({ page, request }) => {
    const pack = await pointsPack(request, 400, 400)
    await newUser(page, request)
    await page.goto('/account')
    await choose(page, pack.name, '微信支付')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/orders') && r.request().method() === 'POST')
    await page.getByRole('button', { name: '立即支付' }).click()
    // The page leaves for WeChat's cashier at once, so the answer's body is gone: check what was asked.
    expect((await created).request().postDataJSON()).toMatchObject({ channel: 'WECHAT', tradeType: 'MWEB' })
    await page.getByRole('button', { name: '确认付款' }).click()
    await expect(page).toHaveURL(/\/account\?order=/)
    await expect(page.getByRole('dialog', { name: '支付' }).getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  })
})

test('paying from the 积分不足 dialog with Alipay page pay comes back to the page the user was on', async ({ page, request }) => {
  const pack = await pointsPack(request, 50, 100)
  await newUser(page, request)
  await page.goto('/text2img')
  await page.getByLabel('提示词', { exact: true }).fill('一只猫')
  const dialog = page.getByRole('dialog', { name: '积分不足' })
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: '立即生成' }).click()
    await expect(dialog).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 45_000 })
  await dialog.getByRole('radio', { name: new RegExp(pack.name) }).click()
  await dialog.getByRole('radiogroup', { name: '支付方式' }).getByRole('radio', { name: '支付宝' }).click()
  await dialog.getByRole('radiogroup', { name: '支付宝支付方式' }).getByRole('radio', { name: '跳转支付宝网页' }).click()
  await dialog.getByRole('button', { name: '立即支付' }).click()
  await page.getByRole('button', { name: '确认付款' }).click()
  await expect(page).toHaveURL(/\/text2img\?order=/)
  const outcome = page.getByRole('dialog', { name: '支付' })
  await expect(outcome.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await outcome.getByRole('button', { name: '完成' }).click()
  await expect(page).toHaveURL(/\/text2img$/)
  await expect(page.getByRole('heading', { name: '文生图' })).toBeVisible()
})

test('积分不足 on /text2img opens the recharge dialog over the page', async ({ page, request }) => {
  await pointsPack(request, 100, 100)
  await newUser(page, request)
  await page.goto('/text2img')
  await page.getByLabel('提示词', { exact: true }).fill('一只猫')
  // A new user may have a sign-up gift: generate until the points run out (1 point an image).
  const dialog = page.getByRole('dialog', { name: '积分不足' })
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: '立即生成' }).click()
    await expect(dialog).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 45_000 })
  await expect(dialog.getByRole('tab', { name: '积分包', selected: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: '立即支付' })).toBeVisible()
  await expect(dialog.getByRole('link', { name: '兑换卡密' })).toBeVisible()
  await expect(page).toHaveURL(/\/text2img$/)
})

/** A new user buys the pack on /account with WeChat (QR paid at once); then the page is the admin's. */
async function buyWithWechatThenAdmin(page: Page, request: APIRequestContext, packName: string) {
  const user = await newUser(page, request)
  await page.goto('/account')
  await choose(page, packName, '微信支付')
  await page.getByRole('button', { name: '立即支付' }).click()
  const outTradeNo = (await page.getByTestId('pay-pending').getAttribute('data-out-trade-no'))!
  await payWechatOrder(outTradeNo)
  await expect(page.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  const headers = await asAdmin(request)
  await signInWithToken(page, headers.authorization.replace(/^Bearer /, ''))
  return { user, outTradeNo }
}

test('the admin finds a paid order on /admin/order_mana and its revenue on /admin/analysis_mana', async ({ page, request }) => {
  const pack = await pointsPack(request, 2000, 1990)
  const { user, outTradeNo } = await buyWithWechatThenAdmin(page, request, pack.name)
  await page.goto('/admin/analysis_mana')
  const revenueBefore = await page.getByTestId('analysis-revenue').textContent()
  expect(Number(revenueBefore)).toBeGreaterThanOrEqual(19.9)
  await expect(page.getByRole('heading', { name: '每日收入（按渠道）' })).toBeVisible()
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible()

  await page.goto('/admin/order_mana')
  await page.getByLabel('搜索用户').fill(user.username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: outTradeNo })
  await expect(row).toBeVisible()
  await expect(row.getByText('成功')).toBeVisible()
  await row.getByRole('button', { name: '详情' }).click()
  const detail = page.getByRole('dialog', { name: '订单详情' })
  await expect(detail.getByTestId('provider-txn-id')).not.toHaveText('-')
  await expect(detail.getByText(/支付通知（[1-9]）/)).toBeVisible()
  await expect(detail.getByRole('button', { name: '退款' })).toBeVisible()
})

test('a refund WeChat has not confirmed shows 处理中 in the console, and 再次确认退款结果 finishes it', async ({ page, request }) => {
  const pack = await pointsPack(request, 300, 300)
  const { user, outTradeNo } = await buyWithWechatThenAdmin(page, request, pack.name)
  await page.goto('/admin/order_mana')
  await page.getByLabel('搜索用户').fill(user.username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: outTradeNo })
  await row.getByRole('button', { name: '详情' }).click()
  const detail = page.getByRole('dialog', { name: '订单详情' })
  await detail.getByRole('button', { name: '退款' }).click()
  const ask = page.getByRole('dialog', { name: '退款' })
  await ask.getByLabel('原因').fill('用户申请退款')
  await setWechatRefundAnswer('processing')
  try {
    await ask.getByRole('button', { name: '确认退款' }).click()
    await expect(page.getByText('退款已提交，支付平台尚未确认结果，系统会自动再次确认')).toBeVisible()
    await expect(detail.getByText('处理中，等待支付平台确认')).toBeVisible()
    await expect(detail.getByRole('button', { name: '退款', exact: true })).toHaveCount(0)
  } finally {
    await setWechatRefundAnswer('made')
  }
  await detail.getByRole('button', { name: '再次确认退款结果' }).click()
  await expect(page.getByText('已退款', { exact: true }).first()).toBeVisible()
  await expect(detail.getByText('处理中，等待支付平台确认')).toHaveCount(0)
  await expect(detail.getByRole('button', { name: '再次确认退款结果' })).toHaveCount(0)
  await detail.getByRole('button', { name: '关闭' }).first().click()
  await expect(row.getByText('已退款')).toBeVisible()
})

test('签到 on /account adds the check-in points once a day', async ({ page, request }) => {
  await newUser(page, request)
  await page.goto('/account')
  const before = Number(await page.getByTestId('account-points').textContent())
  const checkIn = page.getByRole('button', { name: /^签到 \+\d+$/ })
  const award = Number((await checkIn.textContent())!.replace(/\D/g, ''))
  await checkIn.click()
  await expect(page.getByText(`签到成功，获得 ${award} 积分`)).toBeVisible()
  await expect(page.getByTestId('account-points')).toHaveText(String(before + award))
  await expect(page.getByRole('button', { name: '今日已签到' })).toBeDisabled()
})

test('/account reads the wallet again when the next Beijing day starts (今日已签到 is a day’s)', async ({ page, request }) => {
  await newUser(page, request)
  // The page's clock ten seconds before a Beijing midnight (16:00 UTC); the server keeps its own.
  const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T16:00:00.000Z`)
  await page.clock.install({ time: new Date(midnight.getTime() - 10_000) })
  await page.goto('/account')
  await expect(page.getByRole('button', { name: /^签到 \+\d+$/ })).toBeVisible()
  const readAgain = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/api/account/wallet', { timeout: 10_000 })
  await page.clock.runFor(15_000)
  await readAgain
})

test("a member's first visit of the day books the daily points; the header and 收支明细 show them", async ({ page, request }) => {
  const user = await newUser(page, request)
  await makeMember(request, user.token, { days: 30, dailyPoints: 7 })
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data

  await page.goto('/account')
  await expect(page.getByTestId('account-points')).toHaveText('7')
  await expect(page.getByText('会员每日赠送').first()).toBeVisible()
  await page.getByRole('button', { name: me.name }).click()
  await expect(page.getByRole('menu')).toContainText('积分 7')
})

test('a member cannot buy a plan that gives less while theirs runs: told so before anything is charged', async ({ page, request }) => {
  const user = await newUser(page, request)
  await makeMember(request, user.token, { days: 30, dailyPoints: 50, discountPercent: 20 })
  const admin = await asAdmin(request)
  const name = uniqueName('体验卡')
  const created = await request.post('/api/admin/products', {
    headers: admin,
    data: { type: 'MEMBERSHIP', name, description: 'e2e', price: 100, days: 7, dailyPoints: 5, enabled: true, sort: 0 },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const lesser = (await created.json()).data.id
  try {
    await page.goto('/account')
    await page.getByRole('tab', { name: '会员', exact: true }).click()
    await page
      .getByTestId('recharge-form')
      .getByRole('radio', { name: new RegExp(name) })
      .click()
    await page.getByRole('radiogroup', { name: '支付方式' }).getByRole('radio', { name: '微信支付' }).click()
    await page.getByRole('button', { name: '立即支付' }).click()
    await expect(page.getByTestId('recharge-form').getByText(/权益高于「体验卡.*」，现在购买会降低剩余 30 天的权益，请到期后再购买/)).toBeVisible()
    await expect(page.getByRole('dialog', { name: '支付' })).toHaveCount(0)
    const mine = await (await request.get('/api/orders?page=1&pageSize=20', { headers: { authorization: `Bearer ${user.token}` } })).json()
    expect(mine.data.list.map((o: { subject: string }) => o.subject)).not.toContain(name)
  } finally {
    await request.patch(`/api/admin/products/${lesser}`, { headers: admin, data: { enabled: false } })
  }
})

test('签到 in a tab opened before checking in elsewhere says so and shows 今日已签到', async ({ page, request }) => {
  await newUser(page, request)
  const earlier = await page.context().newPage()
  await earlier.goto('/account')
  const stale = earlier.getByRole('button', { name: /^签到 \+\d+$/ })
  await expect(stale).toBeEnabled()
  await page.goto('/account')
  await page.getByRole('button', { name: /^签到 \+\d+$/ }).click()
  await expect(page.getByRole('button', { name: '今日已签到' })).toBeDisabled()

  await stale.click()
  await expect(earlier.getByText('今天已经签到过了')).toBeVisible()
  await expect(earlier.getByRole('button', { name: '今日已签到' })).toBeDisabled()
  await expect(earlier.getByTestId('account-points')).toHaveText((await page.getByTestId('account-points').textContent())!)
  await earlier.close()
})

test('the admin sells a new points pack from /admin/subscription_mana and marks a pending order paid', async ({ page, request }) => {
  const headers = await asAdmin(request)
  await signInWithToken(page, headers.authorization.replace(/^Bearer /, ''))
  await page.goto('/admin/subscription_mana')
  await page.getByRole('tab', { name: '积分包' }).click()
  await page.getByRole('button', { name: '新建积分包' }).click()
  const form = page.getByRole('dialog', { name: '新建商品' })
  const name = uniqueName('控制台积分包')
  await form.getByLabel('名称').fill(name)
  await form.getByLabel('价格（元）').fill('6.60')
  await form.getByLabel('积分数').fill('660')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('¥6.60')

  // A user starts paying it and walks away; the money arrived by other means, so the admin marks it paid.
  const user = await registerViaApi(request)
  const product = ((await (await request.get('/api/products')).json()).data.list as { id: number; name: string }[]).find((p) => p.name === name)!
  const created = await request.post('/api/orders', {
    headers: { authorization: `Bearer ${user.token}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { productId: product.id, type: 'POINTS', channel: 'WECHAT', tradeType: 'NATIVE' },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const { outTradeNo } = (await created.json()).data.order
  await page.goto('/admin/order_mana')
  await page.getByLabel('搜索用户').fill(user.username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: outTradeNo })
  await expect(row.getByText('待支付')).toBeVisible()
  await row.getByRole('button', { name: '详情' }).click()
  await page.getByRole('dialog', { name: '订单详情' }).getByRole('button', { name: '标记已支付' }).click()
  const confirm = page.getByRole('dialog', { name: '标记已支付' })
  await confirm.getByLabel('原因').fill('用户提供了转账凭证')
  await confirm.getByRole('button', { name: '确认标记' }).click()
  await expect(page.getByText('已标记为已支付')).toBeVisible()
  await expect(page.getByRole('dialog', { name: '订单详情' }).getByText('成功')).toBeVisible()
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect(me.points).toBeGreaterThanOrEqual(660)
})

test('signed out, the landing page shows what the site sells with its price', async ({ page, request }) => {
  const pack = await pointsPack(request, 2000, 1880)
  await page.goto('/')
  const card = page.getByTestId('price-card').filter({ hasText: pack.name })
  await expect(card).toContainText('¥18.80')
  await expect(card).toContainText('2000 积分')
  await expect(page.getByRole('link', { name: '登录后购买 →' })).toBeVisible()
})
