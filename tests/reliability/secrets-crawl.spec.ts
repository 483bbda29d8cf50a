// A crawl of every page, every JS chunk of the build and every GET answer of the API (as
// anonymous, USER and ADMIN) for what must never leave the server: the secrets the site was
// started with (AUTH_SECRET, the payment fakes' private keys…), a secret set in the console,
// password hashes ($argon2) and a full card key. The count found must be 0.
import { readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { E2E_SECRETS_FILE } from '../e2e/support/constants'
import { asAdmin, registerViaApi, uniqueName } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const ROOT = path.resolve(import.meta.dirname, '../..')
// A WeChat AppSecret is 32 hex characters.
const CONSOLE_SECRET = crypto.randomUUID().replace(/-/g, '')

/** What to look for: a long enough slice of each secret (a PEM's first body line), so reformatting does not hide it. */
function needles(cardKey: string): Record<string, string> {
  const started = JSON.parse(readFileSync(E2E_SECRETS_FILE, 'utf8')) as Record<string, string>
  const found: Record<string, string> = { $argon2: '$argon2', 'console secret WX_APP_SECRET': CONSOLE_SECRET, 'full card key': cardKey }
  for (const [name, value] of Object.entries(started)) {
    const pemLine = value.split('\n').find((line) => line.length >= 40 && !line.startsWith('-----'))
    found[name] = pemLine ? pemLine.slice(0, 40) : value
  }
  return found
}

/** URL paths: every page (dynamic segments skipped) and every API GET route (dynamic segments given a dummy id). */
async function crawlTargets(): Promise<{ pages: string[]; apis: string[] }> {
  const files = await readdir(path.join(ROOT, 'app'), { recursive: true })
  const toPath = (file: string) =>
    `/${path
      .dirname(file)
      .split(path.sep)
      .filter((s) => s !== '.' && !/^\(.*\)$/.test(s))
      .join('/')}`
  const pages = files.filter((f) => path.basename(f) === 'page.tsx' && !f.includes('[')).map(toPath)
  const apis = files
    .filter(
      (f) =>
        path.basename(f) === 'route.ts' &&
        f.startsWith('api') &&
        !f.includes('[...') &&
        /export const GET/.test(readFileSync(path.join(ROOT, 'app', f), 'utf8')),
    )
    .map((f) => toPath(f).replace(/\[[^\]]+\]/g, '1'))
    .filter((p) => !p.endsWith('/events')) // server-sent events stream forever
  return { pages, apis }
}

async function jsChunks(): Promise<string[]> {
  const dir = path.join(ROOT, '.next/static')
  return (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.js')).map((f) => `/_next/static/${f.split(path.sep).join('/')}`)
}

test('no secret, password hash or full card key in any page, JS chunk or API answer', async ({ request }) => {
  test.setTimeout(240_000)
  const admin = await asAdmin(request)
  const setSecret = (value: string) => request.patch('/api/site-config/WX_APP_SECRET', { headers: admin, data: { value } })
  const set = await setSecret(CONSOLE_SECRET)
  expect(set.ok(), await set.text()).toBeTruthy()
  const cardKey = `SWEEP${crypto.randomUUID().replace(/-/g, '').toUpperCase()}`
  const imported = await request.post('/api/admin/cards/batch_import', { headers: admin, data: { cards: [cardKey], points: 1 } })
  expect(imported.ok(), await imported.text()).toBeTruthy()
  const user = await registerViaApi(request, uniqueName('crawl'))
  const user2Auth = { authorization: `Bearer ${user.token}` }
  const redeemed = await request.post('/api/my-cards/redeem', { headers: { ...user2Auth, 'Idempotency-Key': crypto.randomUUID() }, data: { cardKey } })

  try {
    const find = needles(cardKey)
    const { pages, apis } = await crawlTargets()
    const chunks = await jsChunks()
    const leaks: string[] = []
    let answers = 0
    let bytes = 0
    const scan = async (url: string, headers: Record<string, string> = {}) => {
      const res = await request.get(url, { headers, maxRedirects: 0 })
      const text = await res.text()
      answers++
      bytes += text.length
      for (const [name, needle] of Object.entries(find))
        if (text.includes(needle)) leaks.push(`${name} in ${url} (${headers.authorization ? 'signed in' : 'anonymous'})`)
    }
    for (const url of pages) await scan(url)
    for (let i = 0; i < chunks.length; i += 10) await Promise.all(chunks.slice(i, i + 10).map((url) => scan(url)))
    for (const url of apis) for (const headers of [{}, user2Auth, admin]) await scan(url, headers)
    for (const url of ['/api/admin/cards', '/api/my-cards', '/api/admin/user', '/api/site-config']) await scan(url, admin)
    await scan('/api/my-cards', user2Auth)

    figure('crawl: pages / JS chunks / API routes', `${pages.length} / ${chunks.length} / ${apis.length}`)
    figure('crawl: answers read (MB)', `${answers} (${(bytes / 1024 / 1024).toFixed(1)})`)
    figure('crawl: secrets, hashes or card keys found', leaks.length)
    expect(redeemed.ok(), 'the card was redeemed, so its owner’s list was crawled too').toBeTruthy()
    expect(leaks).toEqual([])
  } finally {
    await setSecret('')
  }
})
