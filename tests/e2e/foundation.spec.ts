import { expect, test, type Page } from '@playwright/test'
import { E2E_ADMIN } from './support/constants'
import { adminToken, loginThroughUi, registerViaApi, uniqueName, signInWithToken, userWithPoints } from './support/session'

test('a newcomer registers, sees the profile and logs out', async ({ page }) => {
  const username = uniqueName('new')
  await page.goto('/')
  await page.getByRole('link', { name: '免费注册' }).click()
  await expect(page).toHaveURL(/\/login_by_password\?mode=register/)
  await page.getByLabel('用户名').fill(username)
  await page.getByLabel('密码', { exact: true }).fill('a-fine-password')
  await page.getByLabel('确认密码').fill('a-fine-password')
  await page.getByRole('checkbox', { name: '我已阅读并同意《用户协议》和《隐私政策》' }).check()
  await page.getByRole('button', { name: '注册并登录' }).click()
  await expect(page).toHaveURL(/\/$/)

  await page.getByRole('button', { name: username }).click()
  await page.getByRole('menuitem', { name: '个人资料' }).click()
  await expect(page.getByRole('heading', { name: '个人资料' })).toBeVisible()
  await expect(page.getByText(`用户名：${username}`)).toBeVisible()

  await page.getByLabel('昵称').fill('新来的画师')
  await page.getByRole('button', { name: '保存昵称' }).click()
  await expect(page.getByText('已保存')).toBeVisible()
  await expect(page.getByRole('button', { name: '新来的画师' })).toBeVisible()
  // The toast settles under the header (its navigation row too, on a phone): the user menu stays in reach.
  const header = (await page.locator('header').boundingBox())!
  await expect.poll(async () => (await page.getByText('已保存').boundingBox())?.y ?? 0).toBeGreaterThanOrEqual(header.y + header.height)

  await page.getByRole('button', { name: '新来的画师' }).click()
  await page.getByRole('menuitem', { name: '退出登录' }).click()
  await expect(page).toHaveURL(/\/login$/)
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()

  await page.goto('/profile')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile/)
})

test('wrong credentials show the server message and keep the user on the form', async ({ page }) => {
  await loginThroughUi(page, 'nobody_here', 'whatever-password')
  await expect(page.getByText('用户名或密码错误')).toBeVisible()
  await expect(page).toHaveURL(/\/login_by_password/)
})

test('login returns to the page named in redirect, and never leaves the site', async ({ page, request }) => {
  const user = await registerViaApi(request)
  await page.goto('/login_by_password?redirect=%2Faccount')
  await page.getByLabel('用户名').fill(user.username)
  await page.getByLabel('密码', { exact: true }).fill(user.password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByTestId('account-balance')).toHaveText('0.00')

  await page.evaluate(() => localStorage.clear())
  await page.goto('/login_by_password?redirect=%2F%2Fevil.example.com')
  await page.getByLabel('用户名').fill(user.username)
  await page.getByLabel('密码', { exact: true }).fill(user.password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
})

test('the admin edits the site name and sees the title change', async ({ page }) => {
  await loginThroughUi(page, E2E_ADMIN.username, E2E_ADMIN.password)
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/admin/site_config')
  const name = `画室${Date.now().toString(36)}`
  const basic = page.locator('form').filter({ hasText: '基本信息' })
  await basic.getByLabel('站点名称').fill(name)
  await basic.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('保存成功')).toBeVisible()
  await expect(page).toHaveTitle(`站点配置 - ${name}`)
  await page.goto('/')
  await expect(page).toHaveTitle(name)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
})

test('a saved secret setting leaves the page: the field shows it masked and nothing is left unsaved', async ({ page, request }) => {
  const token = await adminToken(request)
  await signInWithToken(page, token)
  await page.goto('/admin/site_config')
  const translate = page.locator('form').filter({ hasText: '提示词翻译' })
  const field = translate.getByLabel('翻译接口密钥')
  const secret = `sk-e2e-${Date.now().toString(36)}-wxyz`
  try {
    await field.fill(secret)
    await expect(translate.getByText('1 项未保存')).toBeVisible()
    await translate.getByRole('button', { name: '保存' }).click()
    await expect(page.getByText('保存成功')).toBeVisible()
    await expect(field).toHaveValue('••••wxyz')
    await expect(translate.getByText(/项未保存/)).toHaveCount(0)
    await expect(translate.getByRole('button', { name: '保存' })).toBeDisabled()
    expect(await page.content()).not.toContain(secret)
  } finally {
    const res = await request.patch('/api/site-config/TRANSLATE_API_KEY', { data: { value: '' }, headers: { authorization: `Bearer ${token}` } })
    expect(res.ok(), await res.text()).toBeTruthy()
  }
})

test('the admin creates, edits and deletes a user', async ({ page, request }) => {
  await signInWithToken(page, await adminToken(request))
  await page.goto('/admin/user_mana')
  const username = uniqueName('staff')

  await page.getByRole('button', { name: '新建用户' }).click()
  const dialog = page.getByRole('dialog', { name: '新建用户' })
  await dialog.getByLabel('用户名').fill(username)
  await dialog.getByLabel('昵称').fill('小助手')
  await dialog.getByLabel('初始密码').fill('staff-password-1')
  await dialog.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('用户已创建')).toBeVisible()

  await page.getByLabel('搜索用户').fill(username)
  await page.getByRole('button', { name: '搜索' }).click()
  const row = page.getByRole('row').filter({ hasText: username })
  await expect(row).toContainText('小助手')
  await expect(page.getByText('总计 1 条')).toBeVisible()

  await row.getByRole('button', { name: '编辑' }).click()
  const edit = page.getByRole('dialog', { name: `编辑用户 ${username}` })
  await edit.getByLabel('昵称').fill('运营小王')
  await edit.getByLabel('角色').selectOption('MANAGER')
  await edit.getByRole('button', { name: '保存' }).click()
  await expect(row).toContainText('运营小王')
  await expect(row.getByText('运营', { exact: true })).toBeVisible()

  await row.getByRole('button', { name: '删除' }).click()
  await page.getByRole('dialog', { name: '删除用户' }).getByRole('button', { name: '删除' }).click()
  await expect(page.getByText('已删除')).toBeVisible()
  await expect(page.getByText('没有找到用户')).toBeVisible()
  await expect(page.getByText('总计 0 条')).toBeVisible()
})

/**
 * Every read of the profile fails (on a desktop a component mounting later asks again)
 * until the returned function says the site is back.
 */
async function profileDown(page: Page): Promise<() => void> {
  let down = true
  await page.route('**/api/users/profile', (route) => (down ? route.fulfill({ status: 502, body: 'Bad Gateway' }) : route.fallback()))
  return () => {
    down = false
  }
}

test('a signed-in page whose profile fails to load says so and loads it again on 重试', async ({ page, request }) => {
  const user = await userWithPoints(page, request, 7)
  const siteBack = await profileDown(page)
  await page.goto('/account')
  await expect(page.getByText('加载失败，请稍后重试')).toBeVisible()
  // Every read the page makes on its own has failed before the site comes back: only 重试 may load it then.
  const retry = page.getByRole('button', { name: '重试' })
  await expect(retry).toBeVisible()
  await page.waitForLoadState('networkidle')
  siteBack()
  await retry.click()
  await expect(page.getByTestId('account-points')).toHaveText('7')
  await expect(page.getByRole('button', { name: user.username })).toBeVisible()
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('the console whose profile fails to load says so and loads it again on 重试', async ({ page, request }) => {
  await signInWithToken(page, await adminToken(request))
  const siteBack = await profileDown(page)
  await page.goto('/admin/user_mana')
  await expect(page.getByText('加载失败，请稍后重试')).toBeVisible()
  siteBack()
  await page.getByRole('button', { name: '重试' }).click()
  await expect(page.getByRole('button', { name: '新建用户' })).toBeVisible()
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('a USER opening the admin console is turned away', async ({ page, request }) => {
  const user = await registerViaApi(request)
  await signInWithToken(page, user.token)
  await page.goto('/admin/user_mana')
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
  await expect(page.getByRole('heading', { name: '用户管理' })).toHaveCount(0)
})

test('an expired token on a page sends the browser to /login?redirect=', async ({ page, request }) => {
  const user = await registerViaApi(request)
  // Revoke every token of the user, as a logout elsewhere does; the browser still holds the old one.
  await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${user.token}` } })
  await signInWithToken(page, user.token)
  await page.goto('/account')
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/)
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
})
