import { expect, test, type APIRequestContext } from '@playwright/test'
import { startFakeArk, type FakeArk } from '../fakes/ark-video'
import { solidPng } from '../fakes/jobs'
import { asAdmin, uniqueName, userWithPoints } from './support/session'

// A user makes a clip from a prompt and another from one of their pictures on /ai_video
// (picked there, or sent from the result viewer with 让它动起来), watches the progress, plays
// the result and downloads it (fake Ark behind a VIDEO model that takes a last frame too).

let fake: FakeArk
const created: string[] = []

async function createModel(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const res = await request.post('/api/admin/models', { headers: await asAdmin(request), data })
  expect(res.ok(), await res.text()).toBeTruthy()
  const id = (await res.json()).data.id as string
  created.push(id)
  return id
}

test.beforeAll(async ({ request }) => {
  // About three seconds of progress before the clip is done.
  fake = await startFakeArk({ behaviour: 'slow', slowPolls: 8 })
  await createModel(request, {
    name: uniqueName('Seedance'),
    type: 'VIDEO',
    backend: 'ark-video',
    endpoint: fake.url,
    secret: 'ark-test',
    prices: { VIDEO_TEXT2VIDEO: 10, VIDEO_IMG2VIDEO: 12, VIDEO_PER_SECOND: 2 },
    options: { model: 'doubao-seedance-test', durations: [5, 10], resolutions: ['480p', '720p'], lastFrame: true, firstPollMs: 300, maxPollMs: 400 },
    sort: -50,
  })
})

test.afterAll(async ({ request }) => {
  for (const id of created) await request.patch(`/api/admin/models/${id}`, { headers: await asAdmin(request), data: { enabled: false } })
  await fake.close()
})

/** A finished picture of the user's, made on a demo renderer model of its own; its task id. */
async function makePicture(request: APIRequestContext, token: string, prompt: string): Promise<string> {
  const demo = await createModel(request, { name: uniqueName('演示'), backend: 'demo', prices: { SD_TEXT2IMG: 1 }, options: { stepMs: 0 }, sort: 500 })
  const headers = { authorization: `Bearer ${token}` }
  const picture = await request.post('/api/tasks', { headers, data: { type: 'SD_TEXT2IMG', modelId: demo, params: { prompt, width: 512, height: 512 } } })
  expect(picture.ok(), await picture.text()).toBeTruthy()
  const id = (await picture.json()).data.id as string
  await expect.poll(async () => (await (await request.get(`/api/tasks/${id}`, { headers })).json()).data.status, { timeout: 20_000 }).toBe('SUCCESS')
  return id
}

async function watchAndCheck(page: import('@playwright/test').Page) {
  await expect(page.getByRole('progressbar')).toBeVisible()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  const player = page.getByTestId('video-player')
  await expect(player).toBeVisible()
  expect(await player.getAttribute('poster')).toMatch(/\.poster\.webp$/)
  // It plays: the stored MP4 is served with ranges and time moves.
  await player.evaluate(async (video: HTMLVideoElement) => {
    video.muted = true
    await video.play()
  })
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 10_000 }).toBeGreaterThan(0)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: '下载' }).click()])
  expect(download.suggestedFilename()).toMatch(/-1\.mp4$/)
}

test('a clip from a prompt: price, progress, player, download', async ({ page, request }) => {
  test.setTimeout(90_000)
  await userWithPoints(page, request, 100)
  // Reached from the mode picker of /text2img_v2.
  await page.goto('/text2img_v2')
  await page.getByRole('tablist', { name: '生成模式' }).getByRole('tab', { name: 'AI 视频' }).click()
  await expect(page).toHaveURL(/\/ai_video$/)
  await expect(page.getByRole('heading', { name: 'AI 视频' })).toBeVisible()
  await page.getByLabel('提示词').fill('一只橘猫在窗台上伸懒腰，镜头缓缓推近')
  await expect(page.getByTestId('task-cost')).toHaveText('20')
  await page.getByLabel('时长').selectOption('10')
  await expect(page.getByTestId('task-cost')).toHaveText('30')
  await page.getByLabel('比例').selectOption('9:16')
  await page.getByRole('button', { name: '生成视频' }).click()
  await watchAndCheck(page)
  expect(fake.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body).toMatchObject({ duration: 10, ratio: '9:16', resolution: '720p' })
  await expect(page.getByText(/当前 70 积分/)).toBeVisible()
})

test('a clip from one of the user’s pictures, picked from their works', async ({ page, request }) => {
  test.setTimeout(90_000)
  const user = await userWithPoints(page, request, 100)
  await makePicture(request, user.token, 'a red fox')

  await page.goto('/ai_video')
  await page.getByLabel('提示词').fill('狐狸转头看向镜头')
  await page.getByRole('button', { name: '从我的作品选择' }).click()
  await page
    .getByRole('dialog')
    .getByRole('button')
    .filter({ has: page.getByRole('img', { name: '我的作品' }) })
    .first()
    .click()
  await expect(page.getByRole('img', { name: '首帧（可选）' })).toBeVisible()
  await expect(page.getByTestId('task-cost')).toHaveText('22')
  await page.getByRole('button', { name: '生成视频' }).click()
  await watchAndCheck(page)
  const sent = fake.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body as {
    content: Array<{ type: string; role?: string; image_url?: { url: string } }>
  }
  expect(sent.content[1]).toMatchObject({ type: 'image_url', role: 'first_frame' })
  expect(sent.content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/)
  // The clip stays in 我的作品 with its poster.
  await expect(page.getByRole('heading', { name: '我的作品' })).toBeVisible()
})

test('让它动起来 from the result viewer: that picture is the first frame, an upload the last', async ({ page, request }) => {
  test.setTimeout(90_000)
  const user = await userWithPoints(page, request, 100)
  const prompt = uniqueName('灯塔与海鸥')
  const pictureId = await makePicture(request, user.token, prompt)
  await page.goto('/text2img')
  await page
    .getByRole('button', { name: new RegExp(prompt.slice(0, 10)) })
    .first()
    .click()
  await page.getByTestId('viewer-panel').getByRole('link', { name: '让它动起来' }).click()
  await expect(page).toHaveURL(new RegExp(`/ai_video\\?from=${pictureId}&n=0$`))
  await expect(page.getByRole('img', { name: '首帧（可选）' })).toBeVisible()
  await page.getByLabel('提示词').fill('海鸥飞过灯塔，天色渐暗')
  await page.getByLabel('尾帧（可选）').setInputFiles({ name: 'dusk.png', mimeType: 'image/png', buffer: await solidPng(96, 64, '#553377') })
  await expect(page.getByRole('img', { name: '尾帧（可选）' })).toBeVisible()
  await page.getByRole('button', { name: '生成视频' }).click()
  await watchAndCheck(page)
  const sent = fake.requests('/api/v3/contents/generations/tasks', 'POST').at(-1)!.body as {
    content: Array<{ type: string; role?: string; image_url?: { url: string } }>
  }
  expect(sent.content.slice(1).map((c) => [c.role, c.image_url!.url.slice(0, 22)])).toEqual([
    ['first_frame', 'data:image/png;base64,'],
    ['last_frame', 'data:image/png;base64,'],
  ])
})

test('a clip on the wall: published, approved, played in the viewer, 做同款 refills the form', async ({ page, request }) => {
  test.setTimeout(120_000)
  await userWithPoints(page, request, 100)
  const prompt = uniqueName('海浪拍打礁石')
  await page.goto('/ai_video')
  await page.getByLabel('提示词').fill(prompt)
  await page.getByRole('button', { name: '生成视频' }).click()
  await expect(page.getByTestId('task-status')).toContainText('成功', { timeout: 30_000 })
  await page.getByRole('button', { name: '公开到作品墙' }).click()
  await expect(page.getByText('已提交，审核通过后显示在作品墙')).toBeVisible()
  await expect(page.getByRole('button', { name: '取消公开' })).toBeVisible()

  // The admin lets it on the wall.
  const headers = await asAdmin(request)
  const pending = (await (await request.get('/api/admin/wall?status=PENDING&pageSize=100', { headers })).json()).data.list as { id: string; prompt: string }[]
  const work = pending.find((w) => w.prompt === prompt)
  expect(work, 'the clip waits for the admin').toBeTruthy()
  expect((await request.post(`/api/admin/wall/${work!.id}/approve`, { headers })).ok()).toBeTruthy()

  await page.goto('/image_wall?type=VIDEO')
  await expect(page.getByRole('tab', { name: '视频' })).toHaveAttribute('aria-selected', 'true')
  const tile = page.getByTestId('wall-tile').filter({ hasText: prompt })
  await expect(tile.getByTestId('tile-video')).toContainText('视频')
  const poster = await tile.getByRole('img').getAttribute('src')
  expect(poster).toMatch(/\.poster\.webp$/)
  await tile.click()
  // The viewer keeps its neighbours ready beside it: this clip's player is the one with its poster.
  const player = page.locator(`.work-viewer video[poster="${poster}"]`)
  await expect(player).toBeVisible()
  expect(await player.locator('source').getAttribute('src')).toMatch(/\.mp4$/)
  await player.evaluate(async (video: HTMLVideoElement) => {
    video.muted = true
    await video.play()
  })
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 10_000 }).toBeGreaterThan(0)
  await expect(page.getByTestId('viewer-panel')).toContainText('时长')

  await page.getByTestId('viewer-panel').getByRole('button', { name: '做同款' }).click()
  await expect(page).toHaveURL(/\/ai_video\?same=/)
  await expect(page.getByLabel('提示词')).toHaveValue(prompt)
})
