// The 50 XSS payloads of xss.spec.ts as chat messages on /ai_chat, typed and sent like a person
// would, to a fake OpenAI-compatible model that streams each one back in its Markdown answer (as
// text, as a link target and in inline code). Chromium watches while the answers stream in, and
// again after a reload renders the whole conversation from the history: no payload ran, no
// dialog opened, and no link on the page points anywhere but http(s) or this site.
import { startFakeChatStream, type FakeChatStream } from '../fakes/openai-chat'
import { asAdmin, registerViaApi, signInWithToken, uniqueName } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'
import { PAYLOADS, watchForScripts } from './support/xss-payloads'

const DONE = '回答完毕。'

let fake: FakeChatStream
test.beforeAll(async () => {
  fake = await startFakeChatStream({ answer: (text) => `你说的是：\n\n${text}\n\n[原文链接](${text})\n\n\`${text}\`\n\n${DONE}` })
})
test.afterAll(() => fake?.close())

test('50 XSS payloads sent as chat messages and echoed by the model run nowhere', async ({ page, request }) => {
  test.setTimeout(300_000)
  expect(PAYLOADS).toHaveLength(50)
  const name = uniqueName('回显')
  const created = await request.post('/api/admin/chat-models', {
    headers: await asAdmin(request),
    data: { name, endpoint: fake.url, secret: fake.key, model: 'echo', pricePerMessage: 0, contextMessages: 0, sort: -1000 },
  })
  expect(created.ok(), await created.text()).toBeTruthy()
  const user = await registerViaApi(request)

  const executions = await watchForScripts(page)
  await signInWithToken(page, user.token)
  // The watch itself: a call of _x() on one page still counts after the next navigation.
  await page.evaluate(() => (window as unknown as { _x: () => void })._x())
  await page.goto('/ai_chat')
  await expect.poll(executions).toBe(1)

  await page.getByLabel('模型').selectOption({ label: name })
  const box = page.getByLabel('输入消息')
  const answers = page.locator('[data-role="assistant"]')
  // What the site answered with an error, so a failure below says why the answer is missing.
  const refusals: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400) refusals.push(`${response.request().method()} ${response.url()} → ${response.status()}`)
  })
  /** The page's state when an answer is missing: its alerts, toasts and the site's error answers. */
  const whyNoAnswer = async (i: number, error: unknown) =>
    new Error(
      `message ${i + 1} got no answer: alerts ${JSON.stringify(await page.getByRole('alert').allTextContents())}, ` +
        `toasts ${JSON.stringify(await page.locator('[data-sonner-toast]').allTextContents())}, ` +
        `error answers ${JSON.stringify(refusals)}, model calls ${fake.calls.length}`,
      { cause: error },
    )
  for (const [i, payload] of PAYLOADS.entries()) {
    await box.click()
    await box.fill(payload)
    await box.press('Enter')
    await expect(answers).toHaveCount(i + 1, { timeout: 20_000 })
    await expect(answers.last())
      .toContainText(DONE, { timeout: 20_000 })
      .catch(async (error: unknown) => Promise.reject(await whyNoAnswer(i, error)))
    // The stream has ended (not just shown its last words) before the next message is typed.
    await expect(page.locator('[data-streaming="true"]')).toHaveCount(0)
    await expect(page.getByRole('button', { name: '停止' })).toBeHidden()
  }
  expect(fake.calls.filter((c) => c.path === '/v1/chat/completions')).toHaveLength(PAYLOADS.length)
  // The payloads are on the page as text.
  await expect(answers.first()).toContainText(PAYLOADS[0] ?? '')

  /** Link and frame targets that resolve to anything but http(s) (javascript:, data:, vbscript: ...). */
  const oddLinks = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('a[href], area[href], iframe[src], object[data], embed[src], form[action], button[formaction]')]
        .map((el) => ['href', 'src', 'data', 'action', 'formaction'].map((name) => el.getAttribute(name)).find((v) => v !== null) ?? '')
        .filter((target) => !['http:', 'https:'].includes(new URL(target, document.baseURI).protocol)),
    )
  // The check itself: a javascript: link put on the page is found.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<a id="odd-link-probe" href="javascript:void 0">probe</a>'))
  expect(await oddLinks()).toEqual(['javascript:void 0'])
  await page.evaluate(() => document.getElementById('odd-link-probe')?.remove())
  const oddWhileStreaming = await oddLinks()

  // The history renders every message again, from the server's copy.
  await page.reload()
  await expect(answers).toHaveCount(PAYLOADS.length, { timeout: 20_000 })
  await page.waitForLoadState('networkidle')
  const oddAfterReload = await oddLinks()

  const ran = (await executions()) - 1
  figure('chat XSS payloads sent / answers echoing them', `${PAYLOADS.length} / ${await answers.count()}`)
  figure('chat XSS payloads that ran', ran)
  figure('chat links with a script or data target', oddWhileStreaming.length + oddAfterReload.length)
  expect(ran).toBe(0)
  expect([...oddWhileStreaming, ...oddAfterReload]).toEqual([])
})
