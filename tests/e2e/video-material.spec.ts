import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { ffmpegPath } from '../../lib/generation/video-file'
import { payWechatOrder } from './support/payment-fakes'
import { adminToken, asAdmin, registerViaApi, signInWithToken, uniqueName } from './support/session'

// Video material (docs/PRODUCT.md §18): the admin uploads a paid video with a poster and a
// price; a user previews it, buys it with the balance, plays and downloads it; another user
// cannot reach the original.

const dir = path.join(process.cwd(), '.tmp', 'e2e-video-material')
const clip = path.join(dir, 'clip.mp4')
const poster = path.join(dir, 'poster.png')

test.beforeAll(() => {
  mkdirSync(dir, { recursive: true })
  const ff = (args: string[]) => execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args])
  ff([
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=12:duration=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    clip,
  ])
  ff(['-f', 'lavfi', '-i', 'color=c=orange:s=320x240', '-frames:v', '1', poster])
})

async function userWithBalance(request: APIRequestContext, balance: number) {
  const user = await registerViaApi(request)
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${user.token}` } })).json()).data
  const adjusted = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...(await asAdmin(request)), 'Idempotency-Key': crypto.randomUUID() },
    data: { balance, reason: 'e2e' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()
  return { ...user, id: me.id as string }
}

test('the admin sells a video; a buyer previews, buys with the balance, plays and downloads it; nobody else gets the original', async ({ page, request }) => {
  const title = uniqueName('素材')

  // The operator uploads it (in chunks, with a progress bar) with a poster and a price.
  await signInWithToken(page, await adminToken(request))
  await page.goto('/admin/video_mana')
  await page.getByRole('button', { name: '上传视频' }).click()
  const dialog = page.getByRole('dialog', { name: '上传视频' })
  await dialog.getByLabel('视频文件').setInputFiles(clip)
  await dialog.getByLabel('封面图（可选）').setInputFiles(poster)
  await dialog.getByLabel('标题').fill(title)
  await dialog.getByLabel('标签').fill('测试,城市')
  await dialog.getByLabel('类型').selectOption('paid')
  await dialog.getByLabel('价格（元）').fill('3')
  await dialog.getByRole('button', { name: '上传' }).click()
  await expect(dialog).toBeHidden({ timeout: 30_000 })
  await expect(page.getByText(title)).toBeVisible()
  await expect(page.getByText('付费 ¥3.00').first()).toBeVisible()

  // A user finds it (on /home's 付费视频 tab too), sees the preview (never the original) and buys it with the balance.
  const buyer = await userWithBalance(request, 1000)
  await signInWithToken(page, buyer.token)
  await page.goto('/home')
  await page.getByRole('tab', { name: '付费视频' }).click()
  await expect(page.getByRole('link', { name: new RegExp(title) })).toBeVisible()
  await page.goto('/video_buy')
  await page.getByRole('link', { name: new RegExp(title) }).click()
  await expect(page).toHaveURL(/\/video_buy\/[^/]+$/)
  const id = page.url().split('/').at(-1)!
  const preview = page.getByTestId('video-preview')
  await expect(preview).toBeVisible()
  expect(await preview.getAttribute('src')).toMatch(/\/files\/video-previews\//)
  await expect(page.getByTestId('video-player')).toHaveCount(0)
  await page.getByRole('button', { name: '购买 ¥3.00' }).click()
  const pay = page.getByRole('dialog', { name: '购买视频素材' })
  await expect(pay.getByTestId('video-pay-total')).toHaveText('¥3.00')
  await pay.getByRole('radio', { name: /余额/ }).click()
  await pay.getByRole('button', { name: '立即支付' }).click()
  await expect(page.getByTestId('pay-outcome-green')).toBeVisible()
  await page.keyboard.press('Escape')

  // It plays through the signed link (ranges) and downloads.
  const player = page.getByTestId('video-player')
  await expect(player).toBeVisible()
  const playUrl = (await player.getAttribute('src'))!
  expect(playUrl).toMatch(new RegExp(`^/api/videos/${id}/file\\?`))
  await player.evaluate(async (video: HTMLVideoElement) => {
    video.muted = true
    await video.play()
  })
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 10_000 }).toBeGreaterThan(0)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('video-download').click()])
  expect(download.suggestedFilename()).toMatch(new RegExp(`^video-${id}\\.mp4$`))
  expect(statSync((await download.path())!).size).toBe(readFileSync(clip).length)
  const ranged = await request.get(playUrl, { headers: { range: 'bytes=0-99' } })
  expect(ranged.status()).toBe(206)
  expect((await ranged.body()).equals(readFileSync(clip).subarray(0, 100))).toBe(true)

  // Someone else: no signed link of their own, the buyer's link re-targeted fails, /files refuses.
  const other = await registerViaApi(request)
  const refused = await request.get(`/api/videos/${id}/download`, { headers: { authorization: `Bearer ${other.token}` }, maxRedirects: 0 })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).errMessage).toContain('购买后')
  const detail = (await (await request.get(`/api/videos/${id}`, { headers: { authorization: `Bearer ${other.token}` } })).json()).data
  expect(detail.playUrl).toBeUndefined()
  const me = (await (await request.get('/api/users/profile', { headers: { authorization: `Bearer ${other.token}` } })).json()).data
  expect((await request.get(playUrl.replace(/u=[^&]+/, `u=${me.id}`))).status()).toBe(403)
  const signedOut = await request.get(`/api/videos/${id}/download`, { maxRedirects: 0 })
  expect(signedOut.status()).toBe(401)
  for (const guess of [`/files/private/videos/${id}.mp4`, '/files/private/videos/x.mp4?download=a.mp4']) expect((await request.get(guess)).status()).toBe(404)

  // Another buyer pays by WeChat QR: once paid, the page behind the dialog has the player.
  await signInWithToken(page, other.token)
  await page.goto(`/video_buy/${id}`)
  await page.getByRole('button', { name: '购买 ¥3.00' }).click()
  await pay.getByRole('radio', { name: /微信支付/ }).click()
  // One order, however fast the button is pressed.
  await pay.getByRole('button', { name: '立即支付' }).dblclick()
  const paying = page.getByRole('dialog', { name: '支付' })
  const outTradeNo = await paying.getByTestId('pay-pending').getAttribute('data-out-trade-no')
  await payWechatOrder(outTradeNo!)
  await expect(paying.getByText('支付成功')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('video-player')).toHaveCount(1)
  const orders = (await (await request.get('/api/orders', { headers: { authorization: `Bearer ${other.token}` } })).json()).data
  expect(orders.total).toBe(1)
})
