// Every route of the product (docs/PRODUCT.md §2 and the pages added since), visited in Chromium
// as the kind of user it is for, on desktop and on a phone: each must do its job (its heading
// plus the control or data that proves the page works), with no console error, no page error,
// no failed request and no HTTP answer >= 400 the route does not expect. The list is checked
// against the page.tsx files on disk, so a new page that is not listed here fails this spec.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { expectPageSecurityHeaders } from './support/security-headers'
import { asAdmin, registerViaApi, signInWithToken, adminToken, uniqueName } from './support/session'

const APP_DIR = path.resolve(import.meta.dirname, '../../app')
type Who = 'visitor' | 'user' | 'admin'
type Item = { free?: string; paid?: string; preset?: string; prompt?: string }
type Route = {
  as: Who
  /** The page file that serves it (relative to app/), to say which routes are missing today. */
  file: string
  url?: (item: Item) => string
  shows: (page: Page) => Promise<void>
  /** Answers >= 400 (or console errors) this route is expected to produce. */
  allow?: RegExp
}

const h1 = (page: Page, name: string | RegExp) => expect(page.getByRole('heading', { name, level: 1 }).first()).toBeVisible()
type Find = (page: Page) => Locator
/** The page's heading (or none) and the elements that prove it works, all visible. */
const sees =
  (heading: string | RegExp | null, ...finds: Find[]) =>
  async (page: Page) => {
    if (heading) await h1(page, heading)
    for (const find of finds) await expect(find(page).first()).toBeVisible()
  }
/** A paged console list: its 总计 N 条 footer only shows once the API answered. */
const total: Find = (p) => p.getByText(/总计 \d+ 条/)
const button =
  (name: string | RegExp): Find =>
  (p) =>
    p.getByRole('button', { name })
const upload = button(/点击上传图片/)

/** The routes: the product's 41 (docs/PRODUCT.md §2) plus the pages added since. */
const ROUTES: Record<string, Route> = {
  // Main layout
  '/': { as: 'visitor', file: '(main)/page.tsx', shows: sees(/./, (p) => p.getByRole('link', { name: /开始创作|立即|创作/ })) },
  '/image_wall': { as: 'visitor', file: '(main)/image_wall/page.tsx', shows: sees('作品墙', (p) => p.getByLabel('排序')) },
  '/home': { as: 'visitor', file: '(main)/home/page.tsx', shows: sees('探索', (p) => p.getByPlaceholder('搜索提示词')) },
  '/text2img': { as: 'user', file: '(main)/text2img/page.tsx', shows: sees('文生图', button('立即生成')) },
  '/text2img_v2': {
    as: 'user',
    file: '(main)/text2img_v2/page.tsx',
    shows: sees('AI 创作', (p) => p.getByRole('tab', { name: 'SD 文生图', selected: true }), button('立即生成')),
  },
  '/video': { as: 'user', file: '(main)/video/page.tsx', shows: sees('免费视频素材', (p) => p.getByTestId('video-card')) },
  '/video/{id}': {
    as: 'user',
    file: '(main)/video/[id]/page.tsx',
    url: (item) => `/video/${item.free}`,
    shows: sees(
      /every-route-free/,
      (p) => p.getByTestId('video-player'),
      (p) => p.getByTestId('video-download'),
    ),
  },
  '/video_buy': {
    as: 'user',
    file: '(main)/video_buy/page.tsx',
    shows: sees('付费视频素材', (p) => p.getByTestId('video-card').filter({ hasText: '¥' })),
  },
  '/video_buy/{id}': {
    as: 'user',
    file: '(main)/video_buy/[id]/page.tsx',
    url: (item) => `/video_buy/${item.paid}`,
    // The price and the buy button; the original is not playable before buying.
    shows: async (page) => {
      await sees(/every-route-paid/, button('购买 ¥2.00'))(page)
      await expect(page.getByTestId('video-player')).toHaveCount(0)
    },
  },
  '/img_inpaint': { as: 'user', file: '(main)/img_inpaint/page.tsx', shows: sees('局部重绘', upload) },
  '/img_controlnet': { as: 'user', file: '(main)/img_controlnet/page.tsx', shows: sees('线稿上色', upload) },
  // The form once the site's Midjourney models are known, or (none enabled) where an admin adds one.
  '/mj': {
    as: 'user',
    file: '(main)/mj/page.tsx',
    shows: sees(/Midjourney/, (p) => button('开始生成')(p).or(p.getByText('还没有可用的 Midjourney 模型'))),
  },
  '/account': { as: 'user', file: '(main)/account/page.tsx', shows: sees('我的账户', (p) => p.getByTestId('account-points')) },
  // The collections once they arrived (another spec's, with their works), or the empty note.
  '/showcase': { as: 'visitor', file: '(main)/showcase/page.tsx', shows: sees('精选合集', (p) => p.getByText(/^\d+ 个作品$|^还没有精选合集$/)) },
  '/ai_chat': { as: 'user', file: '(main)/ai_chat/page.tsx', shows: sees('新对话', (p) => p.getByRole('combobox', { name: '模型' })) },
  '/profile': { as: 'user', file: '(main)/profile/page.tsx', shows: sees('个人资料', (p) => p.getByText(/用户名：/)) },
  '/my/invite': { as: 'user', file: '(main)/my/invite/page.tsx', shows: sees('邀请好友', (p) => p.getByTestId('invite-code')) },
  '/my/invite_charge_record': {
    as: 'user',
    file: '(main)/my/invite_charge_record/page.tsx',
    shows: sees(
      '佣金记录',
      (p) => p.getByText('还没有佣金记录，快去邀请好友吧'),
      (p) => p.getByRole('link', { name: /返回邀请好友/ }),
    ),
  },
  '/my_cards': { as: 'user', file: '(main)/my_cards/page.tsx', shows: sees('我的卡密', button('兑换'), (p) => p.getByText('还没有卡密')) },
  // Added beyond the product's original 41
  '/ai_video': { as: 'user', file: '(main)/ai_video/page.tsx', shows: sees('AI 视频', button('生成视频')) },
  '/user_agreement': { as: 'visitor', file: '(main)/user_agreement/page.tsx', shows: sees('用户协议', (p) => p.getByRole('link', { name: '隐私政策' })) },
  '/privacy_policy': { as: 'visitor', file: '(main)/privacy_policy/page.tsx', shows: sees('隐私政策', (p) => p.getByRole('link', { name: '用户协议' })) },

  // Auth layout
  '/login': { as: 'visitor', file: '(auth)/login/page.tsx', shows: sees(null, (p) => p.getByRole('link', { name: /账号密码登录/ })) },
  '/login_by_password': { as: 'visitor', file: '(auth)/login_by_password/page.tsx', shows: sees(null, (p) => p.getByLabel('用户名'), button(/^登录$/)) },
  // WeChat and SMS sign-in are off on this site: the pages say so instead of a QR code or a form.
  '/login_by_wechat': { as: 'visitor', file: '(auth)/login_by_wechat/page.tsx', shows: sees(null, (p) => p.getByText(/微信/)) },
  '/wx_auth': { as: 'visitor', file: '(auth)/wx_auth/page.tsx', url: () => '/wx_auth?error=state', shows: sees('微信登录未完成') },
  '/login/fastlogin': {
    as: 'visitor',
    file: '(auth)/login/fastlogin/page.tsx',
    shows: sees('手机验证码登录', (p) => p.getByRole('status').filter({ hasText: '本站未开启手机验证码登录' })),
  },
  '/bind_mobile': { as: 'user', file: '(auth)/bind_mobile/page.tsx', shows: sees('绑定手机号', (p) => p.getByLabel(/手机号/)) },

  // Admin layout
  '/admin': {
    as: 'admin',
    file: '(admin)/admin/page.tsx',
    shows: async (page) => {
      await expect(page).toHaveURL(/\/admin\/user_mana$/)
      await sees('用户管理', total)(page)
    },
  },
  '/admin/user_mana': { as: 'admin', file: '(admin)/admin/user_mana/page.tsx', shows: sees('用户管理', total) },
  '/admin/user_charge_record_mana': {
    as: 'admin',
    file: '(admin)/admin/user_charge_record_mana/page.tsx',
    shows: sees('用户充值记录', (p) => p.getByRole('textbox', { name: '查找用户' }), button('查找')),
  },
  '/admin/analysis_mana': { as: 'admin', file: '(admin)/admin/analysis_mana/page.tsx', shows: sees('数据分析', (p) => p.getByTestId('analysis-revenue')) },
  '/admin/subscription_mana': {
    as: 'admin',
    file: '(admin)/admin/subscription_mana/page.tsx',
    shows: sees('套餐管理', (p) => p.getByRole('tab', { name: '积分包', selected: true }), button('新建积分包')),
  },
  '/admin/task_mana': { as: 'admin', file: '(admin)/admin/task_mana/page.tsx', shows: sees('任务管理', total) },
  '/admin/charge_record': { as: 'admin', file: '(admin)/admin/charge_record/page.tsx', shows: sees('充值记录', total) },
  '/admin/invite_mana': { as: 'admin', file: '(admin)/admin/invite_mana/page.tsx', shows: sees('邀请管理', total) },
  '/admin/model_mana': { as: 'admin', file: '(admin)/admin/model_mana/page.tsx', shows: sees('模型管理', (p) => p.getByText('演示渲染器')) },
  '/admin/video_mana': {
    as: 'admin',
    file: '(admin)/admin/video_mana/page.tsx',
    shows: sees('视频素材', button('上传视频'), (p) => p.getByText(/every-route-paid/)),
  },
  '/admin/video_buy_mana': { as: 'admin', file: '(admin)/admin/video_buy_mana/page.tsx', shows: sees('素材购买', total) },
  '/admin/custom_model_mana': {
    as: 'admin',
    file: '(admin)/admin/custom_model_mana/page.tsx',
    shows: sees('风格模型', button('新建风格模型'), (p) => p.getByText(item.preset!, { exact: true })),
  },
  '/admin/prompt_mana': {
    as: 'admin',
    file: '(admin)/admin/prompt_mana/page.tsx',
    shows: sees('提示词管理', button('新建提示词'), (p) => p.getByText(item.prompt!, { exact: true }), total),
  },
  '/admin/image_wall_mana': {
    as: 'admin',
    file: '(admin)/admin/image_wall_mana/page.tsx',
    shows: sees('作品墙管理', (p) => p.getByRole('tab', { name: '待审核', selected: true })),
  },
  '/admin/site_config': { as: 'admin', file: '(admin)/admin/site_config/page.tsx', shows: sees('站点配置', (p) => p.getByLabel('站点名称')) },
  '/admin/order_mana': { as: 'admin', file: '(admin)/admin/order_mana/page.tsx', shows: sees('订单管理', total) },
  '/admin/cards_mana': { as: 'admin', file: '(admin)/admin/cards_mana/page.tsx', shows: sees('卡密列表', total, button('批量导入')) },
  '/admin/chat_model_mana': { as: 'admin', file: '(admin)/admin/chat_model_mana/page.tsx', shows: sees('对话模型', button('新建对话模型')) },
}

/** The product's original 41 routes (docs/PRODUCT.md §2): the spec must cover each (the rest of ROUTES are pages added since). */
const PRODUCT_ROUTES = `/ /image_wall /home /text2img /text2img_v2 /video /video/{id} /video_buy /video_buy/{id} /img_inpaint /img_controlnet /mj
/account /showcase /ai_chat /profile /my/invite /my/invite_charge_record /my_cards /login /login_by_password /login_by_wechat /wx_auth
/login/fastlogin /bind_mobile /admin/user_mana /admin/user_charge_record_mana /admin/analysis_mana /admin/subscription_mana /admin/task_mana
/admin/charge_record /admin/invite_mana /admin/model_mana /admin/video_mana /admin/video_buy_mana /admin/custom_model_mana /admin/prompt_mana
/admin/image_wall_mana /admin/site_config /admin/order_mana /admin/cards_mana`.split(/\s+/)

/** The page files under app/(main), app/(auth) and app/(admin), as paths relative to app/. */
async function pageFiles(): Promise<string[]> {
  const files = await readdir(APP_DIR, { recursive: true })
  return files.filter((f) => path.basename(f) === 'page.tsx' && /^\((main|auth|admin)\)/.test(f)).map((f) => f.split(path.sep).join('/'))
}

const missingPage = (route: Route) => !existsSync(path.join(APP_DIR, route.file))

test('the list covers the 41 routes of docs/PRODUCT.md §2 and every page file on disk', async () => {
  expect(PRODUCT_ROUTES).toHaveLength(41)
  expect(
    PRODUCT_ROUTES.filter((r) => !ROUTES[r]),
    'product routes this spec does not visit',
  ).toEqual([])
  const listed = new Set(Object.values(ROUTES).map((r) => r.file))
  expect(
    (await pageFiles()).filter((f) => !listed.has(f)),
    'pages on disk missing from ROUTES: add them',
  ).toEqual([])
})

test('every route of docs/PRODUCT.md §2 has its page', () => {
  const missing = PRODUCT_ROUTES.filter((r) => missingPage(ROUTES[r]!)).map((r) => `${r} (app/${ROUTES[r]!.file})`)
  expect(missing, 'product routes without a page').toEqual([])
})

// One signed-in USER and the admin for the whole file, one free and one paid video, and a
// switched-off preset and prompt for the console's lists (off: no other page offers them).
let userToken = ''
let adminTok = ''
const item: Item = {}

async function uploadVideo(request: APIRequestContext, kind: 'free' | 'paid'): Promise<string> {
  const dir = path.join(process.cwd(), '.tmp', 'e2e-every-route')
  const clip = path.join(dir, 'clip.mp4')
  if (!existsSync(clip)) {
    mkdirSync(dir, { recursive: true })
    const { ffmpegPath } = await import('../../lib/generation/video-file')
    const args = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=12:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args, '-movflags', '+faststart', clip])
  }
  const res = await request.post('/api/admin/videos', {
    headers: await asAdmin(request),
    multipart: {
      file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: readFileSync(clip) },
      title: uniqueName(`every-route-${kind}-`),
      tags: '测试',
      kind,
      price: kind === 'paid' ? '200' : '0',
      published: 'true',
    },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
  return (await res.json()).data.id
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000)
  adminTok = await adminToken(request)
  const user = await registerViaApi(request)
  userToken = user.token
  item.free = await uploadVideo(request, 'free')
  item.paid = await uploadVideo(request, 'paid')
  const admin = { authorization: `Bearer ${adminTok}` }
  const models = (await (await request.get('/api/admin/models', { headers: admin })).json()).data as { id: string; backend: string; type: string }[]
  const demo = models.find((m) => m.backend === 'demo' && m.type === 'STABLE_DIFFUSION')
  expect(demo, 'the demo renderer').toBeTruthy()
  item.preset = uniqueName('every-route-preset-')
  item.prompt = uniqueName('every-route-prompt-')
  for (const [url, data] of [
    ['/api/admin/custom-models', { name: item.preset, modelId: demo!.id, price: 1, enabled: false }],
    ['/api/admin/prompts', { category: '测试', title: item.prompt, prompt: 'a quiet lake', enabled: false }],
  ] as const) {
    const res = await request.post(url, { headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() }, data })
    expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy()
  }
})

/** Everything that went wrong on the page: console errors, page errors, failed requests, answers >= 400. */
function watch(page: Page, allow?: RegExp): string[] {
  const problems: string[] = []
  const allowed = (text: string) => allow?.test(text) ?? false
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !allowed(msg.text())) problems.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('requestfailed', (req) => {
    const failure = req.failure()?.errorText ?? ''
    // A navigation cancels Next's in-flight prefetches and a <video> drops its range requests: not failures.
    if (failure === 'net::ERR_ABORTED' && (/[?&]_rsc=/.test(req.url()) || req.resourceType() === 'media')) return
    if (!allowed(req.url())) problems.push(`request failed: ${req.method()} ${req.url()} ${failure}`)
  })
  page.on('response', (res) => {
    if (res.status() >= 400 && !allowed(`${res.status()} ${res.url()}`)) problems.push(`HTTP ${res.status()}: ${res.request().method()} ${res.url()}`)
  })
  return problems
}

for (const [path_, route] of Object.entries(ROUTES)) {
  test(`${path_} works (${route.as})`, async ({ page }) => {
    if (route.as !== 'visitor') await signInWithToken(page, route.as === 'admin' ? adminTok : userToken)
    const problems = watch(page, route.allow)
    const res = await page.goto(route.url?.(item) ?? path_)
    expect(res!.status(), path_).toBeLessThan(400)
    // The nonce CSP and the other headers (tests/e2e/security-headers.spec.ts also checks each page runs under them).
    expectPageSecurityHeaders(res!.headers(), path_)
    await route.shows(page)
    await page.waitForLoadState('networkidle')
    expect(problems, path_).toEqual([])
  })
}

test('an unknown page shows our Chinese 404 inside the site layout; an unknown API answers the JSON 404', async ({ page, request }) => {
  const problems = watch(page, /\/no-such-page|status of 404/)
  const res = await page.goto('/no-such-page')
  expect(res!.status()).toBe(404)
  await h1(page, '页面不存在')
  await expect(page.getByRole('link', { name: '返回首页' })).toBeVisible()
  // The main layout is around it: the site's own navigation, not a bare framework page.
  await expect(page.getByRole('link', { name: '作品墙' }).first()).toBeAttached()
  await expect(page.getByText('This page could not be found')).toHaveCount(0)
  await page.getByRole('link', { name: '返回首页' }).click()
  await expect(page).toHaveURL(/\/$/)
  expect(problems).toEqual([])

  for (const [method, url] of [
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/admin/no-such-thing'],
    ['DELETE', '/api/tasks/x/y/z'],
  ] as const) {
    const answer = await request.fetch(url, { method })
    expect(answer.status(), `${method} ${url}`).toBe(404)
    expect(await answer.json()).toMatchObject({ success: false, data: null, errMessage: '接口不存在' })
  }
})
