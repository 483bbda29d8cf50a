// Lighthouse performance scores of the production build in Debian's Chromium, for /,
// /image_wall, /text2img and /admin/cards_mana (signed in as ADMIN), on a desktop and on a
// phone (Lighthouse's own presets: desktop, and the default mobile emulation with its
// simulated slow 4G and CPU). Each page is scored RUNS times and the median is printed
// with its metrics. Prints figures; asserts nothing.
//   Run: npm run build && npm run bench:lighthouse   (PORT defaults to 3342; CHROMIUM_PATH)
import lighthouse, { desktopConfig, type Flags } from 'lighthouse'
import puppeteer from 'puppeteer-core'
import { BENCH_ADMIN, startSite } from './site'

const PORT = Number(process.env.PORT ?? 3342)
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)
const ONLY = process.env.LIGHTHOUSE_ONLY
const PAGES = [
  { path: '/', signedIn: false },
  { path: '/image_wall', signedIn: false },
  { path: '/text2img', signedIn: true },
  { path: '/admin/cards_mana', signedIn: true },
]
const FORMS = [
  { name: 'desktop', config: desktopConfig },
  { name: 'phone', config: undefined },
] as const

const site = await startSite('lighthouse', PORT)
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})

try {
  const login = await fetch(`${site.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  })
  const token = ((await login.json()) as { data: { token: string } }).data.token
  const rows: Record<string, string | number>[] = []
  for (const { path, signedIn } of PAGES.filter((p) => !ONLY || p.path === ONLY)) {
    for (const form of FORMS) {
      const runs: Array<{ score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number }> = []
      for (let i = 0; i < RUNS; i++) {
        const page = await browser.newPage()
        // The app keeps its token in localStorage (docs/PRODUCT.md §4.3); Lighthouse is told to keep storage.
        await page.goto(`${site.base}/api/health`)
        await page.evaluate((value) => (value ? localStorage.setItem('token', `Bearer ${value}`) : localStorage.removeItem('token')), signedIn ? token : '')
        const flags: Flags = { logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }
        const result = await lighthouse(`${site.base}${path}`, flags, form.config, page)
        await page.close()
        const lhr = result!.lhr
        const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN
        // What moved, when a page shifts noticeably: the cheapest fix usually starts there.
        if (metric('cumulative-layout-shift') > 0.1 && i === 0) {
          const items =
            (lhr.audits['layout-shifts']?.details as { items?: Array<{ node?: { snippet?: string; selector?: string }; score?: number }> } | undefined)
              ?.items ?? []
          for (const item of items.slice(0, 3))
            console.log(`[cls] ${path} ${form.name} ${item.score?.toFixed(3)} ${item.node?.selector ?? ''} ${item.node?.snippet?.slice(0, 160) ?? ''}`)
        }
        runs.push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          fcp: metric('first-contentful-paint'),
          lcp: metric('largest-contentful-paint'),
          tbt: metric('total-blocking-time'),
          cls: metric('cumulative-layout-shift'),
          si: metric('speed-index'),
        })
      }
      const median = runs.sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!
      rows.push({
        page: path,
        form: form.name,
        score: median.score,
        'all scores': runs.map((r) => r.score).join(' '),
        'FCP ms': Math.round(median.fcp),
        'LCP ms': Math.round(median.lcp),
        'TBT ms': Math.round(median.tbt),
        CLS: Number(median.cls.toFixed(3)),
        'Speed Index ms': Math.round(median.si),
      })
    }
  }
  console.log(`\nLighthouse ${RUNS}× per page and form, median by score (performance category only)`)
  console.table(rows)
} finally {
  await browser.close()
  await site.stop()
}
