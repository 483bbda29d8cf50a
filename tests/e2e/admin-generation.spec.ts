import { expect, test } from '@playwright/test'
import { adminToken, registerViaApi, uniqueName, signInWithToken } from './support/session'
import { pauseWorker, resumeWorker } from './support/worker'

test('the admin sets up a demo model, a user generates with it, and the admin follows and recommends the task', async ({ page, request }) => {
  const admin = await adminToken(request)
  const auth = { authorization: `Bearer ${admin}` }
  const modelName = uniqueName('演示')
  await signInWithToken(page, admin)

  // 模型管理: create a demo-renderer model priced for 文生图 through the dialog.
  await page.goto('/admin/model_mana')
  await expect(page.getByRole('heading', { name: '模型管理' })).toBeVisible()
  await page.getByRole('button', { name: '新建模型' }).click()
  const form = page.getByRole('dialog', { name: '新建模型' })
  await form.getByLabel('名称').fill(modelName)
  await form.getByLabel('后端', { exact: true }).selectOption({ label: '内置演示渲染器' })
  await expect(form.getByLabel('接口地址')).toHaveCount(0)
  await form.getByLabel('文生图价格', { exact: true }).fill('3')
  await form.getByText('高级设置（options JSON）').click()
  await form.getByLabel('后端专用设置').fill('{"stepMs": ')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(form.getByText(/^JSON 格式错误/)).toBeVisible()
  await form.getByLabel('后端专用设置').fill('{"stepMs": 50}')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('模型已创建')).toBeVisible()
  await expect(form).toBeHidden()
  const modelRow = page.getByRole('row').filter({ hasText: modelName })
  await expect(modelRow).toContainText('内置演示渲染器')
  await expect(modelRow).toContainText('文生图 3')
  // At 1280 px the table fits beside the side menu: nothing to scroll sideways, 操作 not cut off.
  const tableBox = page.getByRole('table').locator('xpath=..')
  expect(await tableBox.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0)
  await expect(page.getByRole('columnheader', { name: '操作' })).toBeInViewport({ ratio: 1 })

  // 测试连接 answers with the backend's own words.
  await modelRow.getByRole('button', { name: '测试连接' }).click()
  const testDialog = page.getByRole('dialog', { name: `测试连接：${modelName}` })
  await expect(testDialog.getByRole('status')).toContainText('连接成功：内置演示渲染器可用')
  await testDialog.getByRole('button', { name: '关闭' }).click()

  const models = (await (await request.get('/api/admin/models', { headers: auth })).json()).data as { id: string; name: string; options: unknown }[]
  const model = models.find((m) => m.name === modelName)
  expect(model?.options).toEqual({ stepMs: 50 })

  // A user with points submits a task on that model.
  const user = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  expect(
    (
      await request.post(`/api/admin/user/${me.id}/adjust`, { headers: auth, data: { points: 20, reason: 'e2e 生成测试', requestId: crypto.randomUUID() } })
    ).ok(),
  ).toBeTruthy()

  // With the worker paused the task stays 进行中; the page then follows it to 成功 by itself.
  await pauseWorker()
  try {
    const submitted = await request.post('/api/tasks', {
      headers: { authorization: `Bearer ${user.token}` },
      data: { type: 'SD_TEXT2IMG', modelId: model?.id, params: { prompt: 'a lighthouse at dusk', count: 1 } },
    })
    expect(submitted.ok(), await submitted.text()).toBeTruthy()

    await page.goto('/admin/task_mana')
    await expect(page.getByRole('heading', { name: '任务管理' })).toBeVisible()
    await page.getByLabel('搜索用户').fill(user.username)
    await page.getByRole('button', { name: '搜索' }).click()
    await expect(page.getByText('总计 1 条')).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: user.username })
    await expect(row).toContainText('进行中')
    await expect(row).toContainText(modelName)
    await expect(row.getByRole('button', { name: '推荐' })).toBeDisabled()
  } finally {
    await resumeWorker()
  }
  const row = page.getByRole('row').filter({ hasText: user.username })
  await expect(row).toContainText('成功', { timeout: 20_000 })
  await expect(row.getByRole('img', { name: '结果 1' })).toBeVisible()
  await expect(row.getByRole('button', { name: '取消', exact: true })).toBeDisabled()

  // 详情 whose read fails says so (and offers nothing that spins for good); the next try shows it.
  await page.route('**/api/admin/tasks/*', (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }), { times: 1 })
  await row.getByRole('button', { name: '详情' }).click()
  const detail = page.getByRole('dialog', { name: '任务详情' })
  await expect(detail.getByText('加载失败，请稍后重试')).toBeVisible()

  // 重试 reads it again; 详情 shows the charge in the ledger rows.
  await detail.getByRole('button', { name: '重试' }).click()
  await expect(detail.getByText('a lighthouse at dusk')).toBeVisible()
  const charge = detail.getByRole('row').filter({ hasText: '生成消耗' })
  await expect(charge).toContainText('-3')
  await expect(charge).toContainText('17')
  await detail.getByRole('button', { name: '关闭' }).click()
  await expect(detail).toBeHidden()

  // 推荐 of a result its owner keeps private is refused; once published, it features the work on the image wall.
  await row.getByRole('button', { name: '推荐', exact: true }).click()
  await expect(page.getByText('该作品未被作者公开，不能推荐到作品墙')).toBeVisible()
  const taskId = (await (await request.get(`/api/admin/tasks?user=${user.username}`, { headers: auth })).json()).data.list[0].id
  expect((await request.post(`/api/tasks/${taskId}/publish`, { data: {}, headers: { authorization: `Bearer ${user.token}` } })).ok()).toBeTruthy()
  await row.getByRole('button', { name: '推荐', exact: true }).click()
  await expect(page.getByText('已推荐到作品墙')).toBeVisible()
  await expect(row).toContainText('已推荐')
  await expect(row.getByRole('button', { name: '取消推荐' })).toBeEnabled()
  const tasks = (await (await request.get(`/api/admin/tasks?user=${user.username}`, { headers: auth })).json()).data.list
  expect(tasks[0].isRecommended).toBe(true)
})
