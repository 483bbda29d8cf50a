// /ai_chat against a fake OpenAI-compatible model that streams slowly (tests/fakes/openai-chat.ts):
// the answer appears piece by piece, 停止 keeps what arrived, 重新生成 replaces it, the conversation
// is there after a reload, and a <script> in the model's Markdown shows as text.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { startFakeChatStream, type FakeChatStream } from '../fakes/openai-chat'
import { adminToken, asAdmin, registerViaApi, signInWithToken, uniqueName, userWithPoints } from './support/session'

const SCRIPT = '<script>window.__pwned = 1</script>'
const LONG = Array.from({ length: 60 }, (_, i) => `第${i + 1}句。`).join('')

const onPhone = () => test.info().project.name === 'phone'

/** Taps on a phone, clicks on a desktop: how a person presses a control there. */
const press = (control: Locator) => (onPhone() ? control.tap() : control.click())

/** A chat model on the fake (first in the picker), as the admin adds it; its id. */
async function chatModel(request: APIRequestContext, name: string, options: { pricePerMessage: number; vision?: boolean; sort?: number }): Promise<string> {
  const created = await request.post('/api/admin/chat-models', {
    headers: await asAdmin(request),
    data: { name, endpoint: fake.url, secret: fake.key, model: 'fake-chat', enabled: true, sort: -1000, ...options },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  return (await created.json()).data.id
}

/** Writes a message and sends it: on a phone tapping the box, typing and tapping 发送; on a desktop typing and Enter. */
async function send(page: Page, text: string) {
  const box = page.getByLabel('输入消息')
  if (!onPhone()) {
    await box.fill(text)
    return box.press('Enter')
  }
  await box.tap()
  await box.clear()
  await page.keyboard.type(text)
  // The box's own 发送, beside it: an open edit box has one too.
  await box.locator('..').getByRole('button', { name: '发送', exact: true }).tap()
}

let fake: FakeChatStream
test.beforeAll(async () => {
  fake = await startFakeChatStream({
    delayMs: 80,
    answer: (text) =>
      text.includes('长一点')
        ? LONG
        : `你说的是：${text}\n\n${'慢慢地回答。'.repeat(20)}\n\n| 列一 | 列二 |\n| --- | --- |\n| 甲 | 乙 |\n\n\`\`\`js\nconst answer = 42\n\`\`\`\n\n${SCRIPT}\n\n回答完毕。`,
  })
  fake.set('slow')
})
test.afterAll(() => fake?.close())

test('a user chats with streaming answers, stops one, regenerates it and finds the conversation after a reload', async ({ page, request }) => {
  const name = uniqueName('对话')
  await chatModel(request, name, { pricePerMessage: 1 })
  await userWithPoints(page, request, 20)

  // A slow network: the new conversation's first read of its messages arrives after the
  // server has stored the question, while the answer streams.
  let firstReadDelayed = false
  await page.route('**/api/chat/conversations/*/messages', async (route) => {
    if (route.request().method() === 'GET' && !firstReadDelayed) {
      firstReadDelayed = true
      await new Promise((resolve) => setTimeout(resolve, 400))
    }
    await route.fallback()
  })
  await page.goto('/ai_chat')
  await page.getByLabel('模型').selectOption({ label: `${name}（1 积分/条）` })
  const firstRead = page.waitForResponse((r) => r.url().includes('/messages') && r.request().method() === 'GET')
  await send(page, '你好')

  // The answer grows while it streams: part of it is there before the end, with 停止 offered.
  const streaming = page.locator('[data-streaming="true"]')
  await expect(streaming).toContainText('你说的是：你好')
  await firstRead
  await page.waitForTimeout(300) // the read's render
  // The question is on screen once, though the read brought its stored copy.
  expect(await streaming.count()).toBe(1)
  expect(await page.locator('[data-role="user"]').count()).toBe(1)
  expect(await streaming.textContent()).not.toContain('回答完毕')
  await expect(page.getByRole('button', { name: '停止' })).toBeVisible()
  const answer = page.locator('[data-role="assistant"]').last()
  await expect(answer).toContainText('回答完毕', { timeout: 20_000 })
  await expect(page.getByRole('button', { name: '停止' })).toBeHidden()

  // Markdown: a table and highlighted code; the model's <script> is text, never run.
  await expect(answer.getByRole('table')).toContainText('甲')
  await expect(answer.locator('pre code.hljs')).toContainText('const answer = 42')
  await expect(answer.getByText(SCRIPT)).toBeVisible()
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()

  // 停止 keeps what arrived, marked incomplete.
  await send(page, '说长一点')
  await expect(streaming).toContainText('第3句')
  await press(page.getByRole('button', { name: '停止' }))
  const stopped = page.locator('[data-role="assistant"]').last()
  await expect(stopped).toContainText('回答不完整')
  await expect(stopped).toContainText('第1句')
  await expect(stopped).not.toContainText('第60句')

  // 重新生成 answers that question again, in full.
  await press(page.getByRole('button', { name: '重新生成' }))
  await expect(streaming).toContainText('第1句')
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('第60句', { timeout: 20_000 })
  await expect(page.getByText('回答不完整')).toHaveCount(0)
  await expect(page.locator('[data-role="user"]')).toHaveCount(2)

  // After a reload the conversation is in the list (titled by its first message) and open.
  await page.reload()
  await expect(page.getByRole('heading', { name: '你好', exact: true })).toBeVisible()
  if (onPhone()) await press(page.getByRole('button', { name: '对话', exact: true }))
  await expect(page.getByRole('navigation', { name: '对话列表' }).getByRole('button', { name: '你好', exact: true })).toBeVisible()
  if (onPhone()) await press(page.getByRole('button', { name: '关闭对话列表' }))
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2)
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('第60句')
  await expect(page.locator('[data-role="assistant"]').first().getByText(SCRIPT)).toBeVisible()
})

test('another conversation never stands in for the one opened, and 新建对话 starts empty', async ({ page, request }) => {
  const name = uniqueName('切换')
  const modelId = await chatModel(request, name, { pricePerMessage: 0 })
  const user = await registerViaApi(request)
  await signInWithToken(page, user.token)
  const headers = { authorization: `Bearer ${user.token}` }
  const conversations: string[] = []
  for (const question of ['甲问题', '乙问题']) {
    const conversation = await request.post('/api/chat/conversations', { headers, data: { modelId } })
    const id = (await conversation.json()).data.id
    const answered = await request.post(`/api/chat/conversations/${id}/messages`, { headers, data: { content: question } })
    expect(await answered.text()).toContain('event: done')
    conversations.push(id)
  }
  const list = page.getByRole('navigation', { name: '对话列表' })
  const openList = () => (onPhone() ? press(page.getByRole('button', { name: '对话', exact: true })) : Promise.resolve())
  const messages = page.locator('[data-role]')

  await page.goto(`/ai_chat?c=${conversations[0]}`)
  await expect(page.locator('[data-role="assistant"]')).toContainText(['你说的是：甲问题'], { timeout: 20_000 })
  // A slow network: 乙问题's messages take a second; meanwhile 甲问题's are not shown under its title.
  await page.route('**/api/chat/conversations/*/messages', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await route.fallback()
  })
  await openList()
  await press(list.getByRole('button', { name: '乙问题', exact: true }))
  await expect(page.getByRole('heading', { name: '乙问题' })).toBeVisible()
  await expect(page.getByText('加载中...')).toBeVisible()
  expect(await messages.count()).toBe(0)
  await expect(page.locator('[data-role="user"]')).toContainText(['乙问题'])
  // A search that leaves the open conversation out of the list keeps its title and model.
  await openList()
  await page.getByRole('textbox', { name: '搜索对话' }).fill('甲问题')
  await expect(list.getByRole('button', { name: '乙问题', exact: true })).toHaveCount(0)
  await expect(list.getByRole('button', { name: '甲问题', exact: true })).toBeVisible()
  if (onPhone()) await press(page.getByRole('button', { name: '关闭对话列表' }))
  await expect(page.getByRole('heading', { name: '乙问题' })).toBeVisible()
  await expect(page.getByLabel('模型')).toHaveValue(modelId)

  await openList()
  await press(page.getByRole('button', { name: '新建对话' }))
  await expect(page.getByRole('heading', { name: '新对话' })).toBeVisible()
  await expect(page.getByText('有什么可以帮你？')).toBeVisible()
  expect(await messages.count()).toBe(0)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
})

test('while an answer streams, the other conversations and an edit box opened before it wait until it ends', async ({ page, request }) => {
  const modelId = await chatModel(request, uniqueName('进行中'), { pricePerMessage: 0 })
  const user = await registerViaApi(request)
  const headers = { authorization: `Bearer ${user.token}` }
  const create = async (title: string) => {
    const created = await request.post('/api/chat/conversations', { headers, data: { modelId, title } })
    expect(created.ok(), await created.text()).toBeTruthy()
    return (await created.json()).data.id as string
  }
  await create('另一个对话')
  const id = await create('正在聊的对话')
  const answered = await request.post(`/api/chat/conversations/${id}/messages`, { headers, data: { content: '第一问' } })
  expect(await answered.text()).toContain('event: done')
  await signInWithToken(page, user.token)
  const list = page.getByRole('navigation', { name: '对话列表' })
  const openList = () => (onPhone() ? press(page.getByRole('button', { name: '对话', exact: true })) : Promise.resolve())
  const closeList = () => (onPhone() ? press(page.getByRole('button', { name: '关闭对话列表' })) : Promise.resolve())
  const other = list.getByRole('button', { name: '另一个对话', exact: true })
  const remove = list.getByRole('button', { name: '删除 另一个对话', exact: true })
  const rename = list.getByRole('button', { name: '重命名 另一个对话', exact: true })
  const editSend = page.locator('[data-role="user"]').getByRole('button', { name: '发送', exact: true })

  await page.goto(`/ai_chat?c=${id}`)
  await expect(page.locator('[data-role="assistant"]')).toContainText(['回答完毕'], { timeout: 20_000 })
  // The question's edit box is opened, then another question is sent from the message box.
  await press(page.locator('[data-role="user"]').getByRole('button', { name: '编辑' }))
  await page.getByLabel('编辑消息').fill('改过的问题')
  await send(page, '说长一点')
  await expect(page.locator('[data-streaming="true"]')).toContainText('第1句')
  await expect(editSend).toBeDisabled()
  await openList()
  await expect(other).toBeDisabled()
  await expect(remove).toBeDisabled()
  await expect(rename).toBeDisabled()
  await expect(page.getByRole('button', { name: '新建对话' })).toBeDisabled()

  // Once the answer is in, all of them work again, and the edit box kept its text.
  await expect(other).toBeEnabled({ timeout: 20_000 })
  await expect(remove).toBeEnabled()
  await expect(rename).toBeEnabled()
  await closeList()
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('第60句')
  await expect(page.getByLabel('编辑消息')).toHaveValue('改过的问题')
  await expect(editSend).toBeEnabled()
  await expect(page.getByRole('heading', { name: '正在聊的对话' })).toBeVisible()
})

test('a conversation older than the newest 200, opened by its link, shows its own title and model', async ({ page, request }) => {
  const older = await chatModel(request, uniqueName('旧模型'), { pricePerMessage: 0, sort: -999 })
  const newer = await chatModel(request, uniqueName('新模型'), { pricePerMessage: 0 })
  const user = await registerViaApi(request)
  const headers = { authorization: `Bearer ${user.token}` }
  const create = async (modelId: string, title: string) => {
    const created = await request.post('/api/chat/conversations', { headers, data: { modelId, title } })
    expect(created.ok(), await created.text()).toBeTruthy()
    return (await created.json()).data.id as string
  }
  const oldest = await create(older, '很久以前的对话')
  for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 20 }, (_, i) => create(newer, `近来的对话 ${batch * 20 + i}`)))
  await signInWithToken(page, user.token)

  // Its first read fails: the header says so (not 新对话) and keeps the model unpicked until 重试.
  await page.route(`**/api/chat/conversations/${oldest}`, (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }), { times: 1 })
  await page.goto(`/ai_chat?c=${oldest}`)
  await expect(page.getByRole('heading', { name: '对话信息加载失败' })).toBeVisible()
  await expect(page.getByLabel('模型')).toBeDisabled()
  await page.getByRole('button', { name: '重试' }).click()
  await expect(page.getByRole('heading', { name: '很久以前的对话' })).toBeVisible()
  await expect(page.getByLabel('模型')).toHaveValue(older)
  await expect(page.getByLabel('模型')).toBeEnabled()
  await expect(page.getByText('有什么可以帮你？')).toBeVisible()
})

test('pictures picked for a model that reads them are not sent once a model that cannot is chosen', async ({ page, request }) => {
  const plain = uniqueName('纯文字')
  const seeing = uniqueName('识图')
  for (const [name, vision, sort] of [
    [plain, false, -1000],
    [seeing, true, -1001],
  ] as const) {
    await chatModel(request, name, { pricePerMessage: 0, vision, sort })
  }
  const user = await registerViaApi(request)
  await signInWithToken(page, user.token)
  await page.goto('/ai_chat')
  await page.getByLabel('模型').selectOption({ label: seeing })
  const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3b82f6' } })
    .png()
    .toBuffer()
  await page.locator('input[type="file"]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: picture })
  await expect(page.getByAltText('待发送的图片')).toBeVisible()

  await page.getByLabel('模型').selectOption({ label: plain })
  await expect(page.getByAltText('待发送的图片')).toHaveCount(0)
  const sent = page.waitForRequest((r) => r.url().includes('/messages') && r.method() === 'POST')
  await send(page, '只有文字')
  expect((await sent).postDataJSON()).toEqual({ content: '只有文字' })
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('回答完毕', { timeout: 20_000 })
})

test('an edited question refused for 积分不足 stays in its box as edited', async ({ page, request }) => {
  const name = uniqueName('编辑')
  await chatModel(request, name, { pricePerMessage: 5 })
  await userWithPoints(page, request, 5)
  await page.goto('/ai_chat')
  await page.getByLabel('模型').selectOption({ label: `${name}（5 积分/条）` })
  await send(page, '第一问')
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('回答完毕', { timeout: 20_000 })

  await press(page.locator('[data-role="user"]').getByRole('button', { name: '编辑' }))
  const box = page.getByLabel('编辑消息')
  await box.fill('改过的问题')
  await press(page.getByRole('button', { name: '发送', exact: true }).first())
  const recharge = page.getByRole('dialog', { name: '积分不足' })
  await expect(recharge).toBeVisible()
  if (onPhone()) await page.touchscreen.tap(195, 30)
  else await page.keyboard.press('Escape')
  await expect(recharge).toBeHidden()
  await expect(page.getByLabel('编辑消息')).toHaveValue('改过的问题')
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(1)
})

test('without points the 积分不足 dialog opens, the message stays in the box and no empty conversation is left', async ({ page, request }) => {
  const name = uniqueName('付费')
  await chatModel(request, name, { pricePerMessage: 5 })
  await userWithPoints(page, request, 2)
  await page.goto('/ai_chat')
  await page.getByLabel('模型').selectOption({ label: `${name}（5 积分/条）` })
  const box = page.getByLabel('输入消息')
  await send(page, '你好')
  const recharge = page.getByRole('dialog', { name: '积分不足' })
  await expect(recharge).toBeVisible()
  // The recharge dialog of the payments: the user closes it without buying (on a phone, a tap above the sheet).
  if (onPhone()) await page.touchscreen.tap(195, 30)
  else await page.keyboard.press('Escape')
  await expect(recharge).toBeHidden()
  await expect(box).toHaveValue('你好')
  await expect(page.getByRole('heading', { name: '新对话' })).toBeVisible()
  if (onPhone()) await press(page.getByRole('button', { name: '对话', exact: true }))
  await expect(page.getByRole('navigation', { name: '对话列表' }).getByText('还没有对话')).toBeVisible()
})

test("an admin adds a chat model in 对话模型 and 测试连接 answers with the model's words", async ({ page, request }) => {
  const name = uniqueName('控制台')
  await signInWithToken(page, await adminToken(request))
  await page.goto('/admin/chat_model_mana')
  await press(page.getByRole('button', { name: '新建对话模型' }))
  const form = page.getByRole('dialog', { name: '新建对话模型' })
  await form.getByLabel('名称', { exact: true }).fill(name)
  await form.getByLabel('模型名称').fill('deepseek-chat')
  await form.getByLabel('接口地址').fill(`${fake.url}/v1`)
  await form.getByLabel('密钥').fill(fake.key)
  await form.getByLabel('每条消息积分').fill('2')
  await press(form.getByRole('button', { name: '保存' }))
  await expect(page.getByText('对话模型已创建')).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('deepseek-chat')
  await expect(row).not.toContainText(fake.key)
  fake.set('normal')
  await press(row.getByRole('button', { name: '测试连接' }))
  await expect(page.getByText(/^连接成功，模型回复：/)).toBeVisible()
  fake.set('slow')
})
