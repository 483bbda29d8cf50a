// Invites (docs/PRODUCT.md §17): a user copies the invite link from /my/invite, a second browser signs
// up through it and buys points with WeChat Pay (the fake, NATIVE QR), and the first sees the
// commission on /my/invite_charge_record.
import { expect, test } from '@playwright/test'
import { enablePayments, payWechatOrder } from './support/payment-fakes'
import { asAdmin, registerViaApi, signInWithToken, uniqueName } from './support/session'

const CONSENT = '我已阅读并同意《用户协议》和《隐私政策》'

test('an invite link: sign-up binds the inviter, a paid order pays the commission once, the inviter sees the record', async ({
  browser,
  page,
  request,
  context,
}) => {
  await enablePayments(request)
  const admin = await asAdmin(request)
  const settings = await request.post('/api/admin/commission/update', { headers: admin, data: { rates: { POINTS: 10 }, payAs: 'BALANCE' } })
  expect(settings.ok(), await settings.text()).toBeTruthy()
  const packName = uniqueName('邀请积分包')
  const product = await request.post('/api/admin/products', { headers: admin, data: { type: 'POINTS', name: packName, price: 1990, points: 2000 } })
  expect(product.ok(), await product.text()).toBeTruthy()

  // The inviter copies the link.
  const inviter = await registerViaApi(request)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signInWithToken(page, inviter.token)
  await page.goto('/my/invite')
  await expect(page.getByRole('heading', { name: '邀请好友' })).toBeVisible()
  const code = (await page.getByTestId('invite-code').textContent())!.trim()
  expect(code).toMatch(/^[2-9A-Z]{8}$/)
  await expect(page.getByTestId('invited-count')).toHaveText('0')
  await expect(page.getByText('佣金不可提现，只能在本站消费使用')).toBeVisible()
  await expect(page.getByTestId('invite-poster')).toBeVisible()
  await page.getByRole('button', { name: '复制链接' }).click()
  await expect(page.getByText('邀请链接已复制')).toBeVisible()
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(link).toMatch(new RegExp(`/login\\?invite=${code}$`))

  // A second browser signs up through it.
  const friendContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined })
  const friend = await friendContext.newPage()
  await friend.goto(link)
  await expect(friend.getByTestId('invite-notice')).toContainText(code)
  await friend.getByRole('link', { name: /账号密码登录/ }).click()
  await expect(friend.getByRole('tab', { name: '注册' })).toHaveAttribute('aria-selected', 'true')
  const username = uniqueName('friend')
  await friend.getByLabel('用户名').fill(username)
  await friend.getByLabel('密码', { exact: true }).fill('a-fine-password')
  await friend.getByLabel('确认密码').fill('a-fine-password')
  await friend.getByRole('checkbox', { name: CONSENT }).check()
  await friend.getByRole('button', { name: '注册并登录' }).click()
  await expect(friend).toHaveURL(/127\.0\.0\.1:\d+\/$/)

  // …and sees the inviter on its own invite page.
  await friend.goto('/my/invite')
  await expect(friend.getByTestId('my-inviter')).toBeVisible()

  // It buys the points pack with WeChat Pay (NATIVE QR); the fake WeChat pays it.
  await friend.goto('/account')
  await friend.getByRole('tab', { name: '积分包' }).click()
  await friend
    .getByTestId('recharge-form')
    .getByRole('radio', { name: new RegExp(packName) })
    .click()
  await friend.getByRole('radiogroup', { name: '支付方式' }).getByRole('radio', { name: '微信支付' }).click()
  await friend.getByRole('button', { name: '立即支付' }).click()
  const dialog = friend.getByRole('dialog', { name: '支付' })
  const outTradeNo = await dialog.getByTestId('pay-pending').getAttribute('data-out-trade-no')
  await payWechatOrder(outTradeNo!)
  await expect(dialog.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await friendContext.close()

  // The inviter sees one more invitee, ¥1.99 earned and the record.
  await page.goto('/my/invite')
  await expect(page.getByTestId('invited-count')).toHaveText('1')
  await expect(page.getByTestId('earned-balance')).toHaveText('¥1.99')
  await page.getByRole('link', { name: '查看佣金记录 →' }).click()
  await expect(page).toHaveURL(/\/my\/invite_charge_record$/)
  await expect(page.getByRole('heading', { name: '佣金记录' })).toBeVisible()
  const rows = page.getByText('¥19.90')
  await expect(rows).toHaveCount(1)
  await expect(page.getByText('¥1.99')).toBeVisible()
  await expect(page.getByText(/^f\*+.$/)).toBeVisible()
})
