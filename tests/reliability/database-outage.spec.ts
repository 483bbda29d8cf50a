// The database goes away under load (docs/RELIABILITY.md §1). The spec runs a site of its own
// (the production build and a separate worker) whose DATABASE_URL goes through a TCP proxy it
// controls, and while users sign up, read, rename themselves, redeem card keys and submit tasks
// it takes the database away twice: cut (connections reset, new ones refused) and black-holed
// (nothing answers, nothing is refused). During each outage the API answers 503 数据库暂时不可用
// in the envelope and pages show the Chinese error page; afterwards the site recovers by itself,
// every write that was answered 2xx is in the database, the ledger adds up and the worker runs
// tasks again.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from '@playwright/test'
import pg from 'pg'
import { startTcpProxy, type TcpProxy } from '../fakes/tcp-proxy'
import { createTestDatabase } from '../helpers/test-database'
import { expect, figure, ledgerMismatches, test } from './support/fixtures'
import { OWN_ADMIN, startOwnSite, type OwnSite } from './support/own-site'

const PORT = Number(process.env.E2E_PORT ?? 3210) + 1
const DB_MESSAGE = '数据库暂时不可用，请稍后重试'
/** P2028 (no transaction slot in time) keeps its own 503 sentence. */
const BUSY_MESSAGE = '系统繁忙，请稍后再试'
const LOOPS = 6
const CARDS = 240
const CUT_MS = 10_000
/** Longer than lib/db.ts's 20 s statement timeout, so requests stuck on a silent connection must give up on their own. */
const BLACK_HOLE_MS = 25_000
const RECOVERY_LIMIT_MS = 30_000
/** What must never reach a client: stack frames, Prisma's and pg's own words, file paths. */
const INTERNALS = [
  /\bat \S+ \(.*:\d+:\d+\)/,
  /Invalid `prisma/,
  /Can't reach database/,
  /Query read timeout/,
  /ECONN/,
  /timeout expired/,
  /\/work\/|node_modules/,
]

type Call = { loop: number; kind: string; started: number; ended: number; status: number; text: string; retryAfter: string | null }
type User = { id: string; username: string; token: string }

const parseJson = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return {}
  }
}
/** A user at the limit of tasks in progress (4) is told so: a refusal of its own, not the outage's. */
const atTaskLimit = (c: Call) => c.kind === 'task' && c.status === 429 && parseJson(c.text).code === 'TOO_MANY_REQUESTS'
const isAcked = (entry: Call) => entry.status >= 200 && entry.status < 300
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
let ipCounter = 1

test('the database cut and black-holed under load: 503 in Chinese, recovery within 30 s, no acknowledged write lost', async ({ page }, testInfo) => {
  test.setTimeout(600_000)
  const database = await createTestDatabase('aiimg_outage')
  const target = new URL(database.url)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const viaProxy = new URL(database.url)
  viaProxy.hostname = '127.0.0.1'
  viaProxy.port = String(proxy.port)
  const direct = new pg.Client({ connectionString: database.url })
  await direct.connect()
  let site: OwnSite | undefined
  try {
    // TRUST_PROXY: each sign-up comes from an address of its own (X-Real-IP), past the per-address limit.
    site = await startOwnSite({ port: PORT, databaseUrl: viaProxy.toString(), env: { TRUST_PROXY: 'true' } })
    await runOutages(site, proxy, direct, database.url, page)
  } finally {
    // What the site printed, for reading after a failure.
    await mkdir(testInfo.outputDir, { recursive: true })
    if (site) await writeFile(path.join(testInfo.outputDir, 'site-output.log'), site.output.join('\n')).catch(() => undefined)
    await direct.end().catch(() => undefined)
    await site?.stop()
    await proxy.close()
    await database.drop()
  }
})

async function runOutages(site: OwnSite, proxy: TcpProxy, direct: pg.Client, databaseUrl: string, page: Page) {
  const base = site.baseUrl
  const calls: Call[] = []

  const call = async (loop: number, kind: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const started = Date.now()
    let status = -1
    let text = ''
    let retryAfter: string | null = null
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-real-ip': '10.0.0.1', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      })
      status = res.status
      retryAfter = res.headers.get('retry-after')
      text = await res.text()
    } catch (error) {
      text = `no answer: ${(error as Error).message}`
    }
    const entry = { loop, kind, started, ended: Date.now(), status, text, retryAfter }
    if (loop >= 0) calls.push(entry)
    return entry
  }
  const data = (entry: Call) => {
    expect(isAcked(entry), `${entry.kind}: ${entry.status} ${entry.text}`).toBe(true)
    return JSON.parse(entry.text).data
  }
  const auth = (token: string) => ({ authorization: `Bearer ${token}` })
  const signUp = async (loop: number, username: string) =>
    call(
      loop,
      'signup',
      'POST',
      '/api/auth/register',
      { username, password: 'outage-password-7', agreeTerms: true },
      { 'x-real-ip': `10.1.${ipCounter >> 8}.${ipCounter++ & 255}` },
    )

  // Set-up: the admin, a batch of card keys made ready by the worker, one user per load loop with points.
  const adminToken = data(await call(-1, 'login', 'POST', '/api/auth/login', OWN_ADMIN)).token as string
  const tag = Date.now().toString(36).toUpperCase()
  const keys = Array.from({ length: CARDS }, (_, i) => `DB${tag}X${i.toString(36).toUpperCase().padStart(4, '0')}`)
  const { batchId } = data(await call(-1, 'import', 'POST', '/api/admin/cards/batch_import', { cards: keys, points: 7 }, auth(adminToken)))
  await expect
    .poll(async () => (await direct.query(`SELECT count(*)::int AS n FROM "Card" WHERE "batchId" = $1 AND status = 'SUCCESS'`, [batchId])).rows[0].n, {
      timeout: 60_000,
    })
    .toBe(CARDS)
  const users: User[] = []
  for (let i = 0; i < LOOPS; i++) {
    const username = `out${tag.toLowerCase()}${i}`
    const token = data(await signUp(-1, username)).token as string
    const id = data(await call(-1, 'profile', 'GET', '/api/users/profile', undefined, auth(token))).id as string
    data(
      await call(
        -1,
        'adjust',
        'POST',
        `/api/admin/user/${id}/adjust`,
        { points: 100_000, reason: 'outage' },
        { ...auth(adminToken), 'Idempotency-Key': crypto.randomUUID() },
      ),
    )
    users.push({ id, username, token })
  }

  // What was acknowledged (2xx), to find in the database afterwards.
  const ackedSignups: string[] = []
  const renames = users.map(() => [] as Array<{ name: string; acked: boolean }>)
  const ackedRedeems: Array<{ cardId: number; userId: string }> = []
  const ackedTasks: Array<{ id: string; userId: string }> = []
  let nextKey = 0
  let signups = 0
  let stop = false

  const loop = async (i: number) => {
    const user = users[i]!
    const headers = auth(user.token)
    const steps = ['read-profile', 'rename', 'read-tasks', 'redeem', 'read-site', 'task', 'read-ledger', i < 2 ? 'signup' : 'rename']
    for (let n = 0; !stop; n++) {
      const step = steps[n % steps.length]!
      if (step === 'read-profile') await call(i, step, 'GET', '/api/users/profile', undefined, headers)
      else if (step === 'read-tasks') await call(i, step, 'GET', '/api/tasks?page=1&pageSize=5', undefined, headers)
      else if (step === 'read-site') await call(i, step, 'GET', '/api/site-config/site-info')
      else if (step === 'read-ledger') await call(i, step, 'GET', '/api/users/ledger', undefined, headers)
      else if (step === 'rename') {
        const name = `名${i}-${n}`
        renames[i]!.push({ name, acked: false })
        const done = await call(i, step, 'PATCH', '/api/users/profile', { name }, headers)
        if (isAcked(done)) renames[i]!.at(-1)!.acked = true
      } else if (step === 'redeem') {
        const key = keys[nextKey++]
        if (!key) continue
        const done = await call(i, step, 'POST', '/api/my-cards/redeem', { cardKey: key }, headers)
        if (isAcked(done)) ackedRedeems.push({ cardId: JSON.parse(done.text).data.card.id, userId: user.id })
      } else if (step === 'task') {
        const done = await call(
          i,
          step,
          'POST',
          '/api/tasks',
          { type: 'SD_TEXT2IMG', params: { prompt: `outage ${i}-${n}`, count: 1 } },
          { ...headers, 'Idempotency-Key': crypto.randomUUID() },
        )
        if (isAcked(done)) ackedTasks.push({ id: JSON.parse(done.text).data.id, userId: user.id })
      } else if (step === 'signup') {
        const username = `outs${tag.toLowerCase()}${signups++}`
        const done = await signUp(i, username)
        if (isAcked(done)) ackedSignups.push(username)
      }
      await sleep(100)
    }
  }

  /** From `restoredAt`: how long until a signed-in read succeeds and no request started after that fails. */
  const recovery = async (restoredAt: number) => {
    let firstOk = 0
    while (!firstOk) {
      const probe = await call(-1, 'probe', 'GET', '/api/users/profile', undefined, auth(users[0]!.token))
      if (probe.status === 200) firstOk = probe.ended
      else await sleep(200)
      if (Date.now() - restoredAt > 120_000) break
    }
    await sleep(10_000) // load keeps running: any failure still to come shows up
    const lastFailure = Math.max(0, ...calls.filter((c) => c.started >= restoredAt && c.status >= 300 && !atTaskLimit(c)).map((c) => c.ended))
    return (firstOk ? Math.max(firstOk, lastFailure) : Date.now()) - restoredAt
  }

  /**
   * A page during an outage: 503 with Retry-After (scripts/next-server.mjs, marked by
   * instrumentation.ts) and nothing of the error in the HTML (Next.js sends an empty error
   * shell with the errors' digests when the root layout fails), and in Chromium the Chinese
   * error page with 重试 (app/global-error.tsx, rendered by the browser).
   */
  const pageDuringOutage = async (label: string) => {
    const html = await call(-1, 'page', 'GET', '/text2img')
    figure(`${label}: /text2img status`, html.status)
    expect(html.status, 'a page during the outage answers 503, as the API does').toBe(503)
    expect(html.retryAfter, 'and says when to come back').toBe('10')
    for (const pattern of INTERNALS) expect(html.text, `${label}: the page shows no ${pattern}`).not.toMatch(pattern)
    await page.goto(`${base}/text2img`, { timeout: 60_000 })
    await expect(page.getByRole('heading', { name: '服务暂时不可用' })).toBeVisible()
    await expect(page.getByRole('button', { name: '重试' })).toBeVisible()
  }

  const runStarted = Date.now()
  const loops = users.map((_, i) => loop(i))
  await sleep(5_000)

  // 1. Cut: every connection reset, new ones refused.
  await proxy.cut()
  const cutAt = Date.now()
  // The site settings are cached for 5 s: the page after that must read the database.
  await sleep(6_000)
  await pageDuringOutage('cut')
  await sleep(Math.max(0, CUT_MS - (Date.now() - cutAt)))
  await proxy.restore()
  const cutRestoredAt = Date.now()
  const cutRecovery = await recovery(cutRestoredAt)
  await page.goto(`${base}/text2img`)
  await expect(page.getByRole('heading', { name: '服务暂时不可用' })).toHaveCount(0)

  // 2. Black hole: connections stay open, nothing answers, new ones hang.
  proxy.blackHole()
  const holeAt = Date.now()
  await sleep(6_000)
  await pageDuringOutage('black hole')
  await sleep(Math.max(0, BLACK_HOLE_MS - (Date.now() - holeAt)))
  await proxy.restore()
  const holeRestoredAt = Date.now()
  const holeRecovery = await recovery(holeRestoredAt)

  stop = true
  await Promise.all(loops)
  const runEnded = Date.now()

  // Every failed answer: 503 in the envelope with a Chinese sentence, nothing of the internals.
  const failed = calls.filter((c) => c.status >= 300 && !atTaskLimit(c))
  const wrong = failed.filter((c) => {
    if (c.status !== 503) return true
    const body = parseJson(c.text)
    return !(
      body.success === false &&
      body.data === null &&
      body.code === 'SERVICE_UNAVAILABLE' &&
      (body.errMessage === DB_MESSAGE || body.errMessage === BUSY_MESSAGE)
    )
  })
  const leaking = calls.filter((c) => INTERNALS.some((pattern) => pattern.test(c.text)))
  const inCut = calls.filter((c) => c.started >= cutAt && c.started < cutRestoredAt)
  const inHole = calls.filter((c) => c.started >= holeAt && c.started < holeRestoredAt)
  const slowestInHole = Math.max(0, ...inHole.map((c) => c.ended - c.started))

  // Acknowledged writes, looked up in the database itself (not through the proxy).
  const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[]) => (await direct.query<T>(sql, params)).rows
  const foundSignups = new Set((await q<{ username: string }>(`SELECT username FROM "User" WHERE username = ANY($1)`, [ackedSignups])).map((r) => r.username))
  const names = new Map(
    (await q<{ id: string; name: string }>(`SELECT id, name FROM "User" WHERE id = ANY($1)`, [users.map((u) => u.id)])).map((r) => [r.id, r.name]),
  )
  const lostRenames = users.filter((user, i) => {
    const tried = renames[i]!
    const lastAcked = tried.findLastIndex((r) => r.acked)
    if (lastAcked < 0) return false
    // The last acknowledged name, or one sent after it whose answer was lost but whose write went through.
    return !tried.slice(lastAcked).some((r) => r.name === names.get(user.id))
  })
  const cards = new Map(
    (await q<{ id: number; usedById: string | null }>(`SELECT id, "usedById" FROM "Card" WHERE id = ANY($1)`, [ackedRedeems.map((r) => r.cardId)])).map((r) => [
      r.id,
      r.usedById,
    ]),
  )
  const redeemRefs = new Set(
    (await q<{ reference: string }>(`SELECT reference FROM "LedgerEntry" WHERE reference = ANY($1)`, [ackedRedeems.map((r) => `card:${r.cardId}:redeem`)])).map(
      (r) => r.reference,
    ),
  )
  const lostRedeems = ackedRedeems.filter((r) => cards.get(r.cardId) !== r.userId || !redeemRefs.has(`card:${r.cardId}:redeem`))
  const tasks = new Map(
    (await q<{ id: string; userId: string }>(`SELECT id, "userId" FROM "Task" WHERE id = ANY($1)`, [ackedTasks.map((t) => t.id)])).map((r) => [r.id, r.userId]),
  )
  const lostTasks = ackedTasks.filter((t) => tasks.get(t.id) !== t.userId)
  const acked = ackedSignups.length + renames.flat().filter((r) => r.acked).length + ackedRedeems.length + ackedTasks.length
  const lost = ackedSignups.filter((u) => !foundSignups.has(u)).length + lostRenames.length + lostRedeems.length + lostTasks.length

  // The worker came through: every acknowledged task ends, and a task sent now runs.
  await expect
    .poll(
      async () =>
        (await q<{ n: number }>(`SELECT count(*)::int AS n FROM "Task" WHERE id = ANY($1) AND status = 'PENDING'`, [ackedTasks.map((t) => t.id)]))[0]?.n,
      {
        timeout: 180_000,
        intervals: [1000],
      },
    )
    .toBe(0)
  const fresh = data(
    await call(
      -1,
      'task',
      'POST',
      '/api/tasks',
      { type: 'SD_TEXT2IMG', params: { prompt: 'after the outage', count: 1 } },
      { ...auth(users[0]!.token), 'Idempotency-Key': crypto.randomUUID() },
    ),
  ).id as string
  const freshStarted = Date.now()
  await expect
    .poll(async () => (await q<{ status: string }>(`SELECT status FROM "Task" WHERE id = $1`, [fresh]))[0]?.status, { timeout: 120_000, intervals: [500] })
    .toBe('SUCCESS')
  const freshMs = Date.now() - freshStarted
  const taskEnds = await q<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM "Task" WHERE id = ANY($1) GROUP BY status`, [
    ackedTasks.map((t) => t.id),
  ])
  const { users: ledgerUsers, mismatches } = await ledgerMismatches(databaseUrl)
  const workerErrors = site.output.filter((line) => line.startsWith('worker:') && /\bfailed\b|lost|cannot connect/.test(line)).length

  figure(
    'outage run: requests / seconds / task submits refused at the 4-in-progress limit',
    `${calls.length} / ${Math.round((runEnded - runStarted) / 1000)} / ${calls.filter(atTaskLimit).length}`,
  )
  figure(
    'cut (10 s): requests started / answered 503 / other failures',
    `${inCut.length} / ${inCut.filter((c) => c.status === 503).length} / ${inCut.filter((c) => c.status >= 300 && c.status !== 503 && !atTaskLimit(c)).length}`,
  )
  figure('cut: recovered after the database returned (ms)', cutRecovery)
  figure(
    `black hole (${BLACK_HOLE_MS / 1000} s): requests started / answered 503 / other failures`,
    `${inHole.length} / ${inHole.filter((c) => c.status === 503).length} / ${inHole.filter((c) => c.status >= 300 && c.status !== 503 && !atTaskLimit(c)).length}`,
  )
  figure('black hole: slowest answer (ms)', slowestInHole)
  figure('black hole: recovered after the network returned (ms)', holeRecovery)
  figure('failed answers not 503 in the envelope / answers showing internals', `${wrong.length} / ${leaking.length}`)
  figure(
    'acknowledged writes: sign-ups / renames / redemptions / tasks',
    `${ackedSignups.length} / ${renames.flat().filter((r) => r.acked).length} / ${ackedRedeems.length} / ${ackedTasks.length}`,
  )
  figure('acknowledged writes missing from the database', `${lost} of ${acked}`)
  figure('acknowledged tasks by final status', taskEnds.map((r) => `${r.status} ${r.n}`).join(', '))
  figure('task sent after the outages: SUCCESS after (ms)', freshMs)
  figure('worker log lines about database failures / worker still running', `${workerErrors} / ${site.worker.exitCode === null}`)
  figure('outage users whose ledger differs', `${mismatches.length} of ${ledgerUsers}`)

  expect(wrong.map((c) => `${c.kind} ${c.status} ${c.text.slice(0, 200)}`)).toEqual([])
  expect(leaking.map((c) => `${c.kind} ${c.status} ${c.text.slice(0, 200)}`)).toEqual([])
  expect(inCut.filter((c) => c.status === 503).length, 'the cut reached the app').toBeGreaterThan(0)
  expect(inHole.filter((c) => c.status === 503).length, 'the black hole reached the app and requests gave up on their own').toBeGreaterThan(0)
  expect(cutRecovery).toBeLessThanOrEqual(RECOVERY_LIMIT_MS)
  expect(holeRecovery).toBeLessThanOrEqual(RECOVERY_LIMIT_MS)
  expect(acked, 'writes were acknowledged around the outages').toBeGreaterThan(20)
  expect({
    signups: ackedSignups.filter((u) => !foundSignups.has(u)),
    renames: lostRenames.map((u) => u.username),
    redeems: lostRedeems,
    tasks: lostTasks,
  }).toEqual({
    signups: [],
    renames: [],
    redeems: [],
    tasks: [],
  })
  expect(mismatches).toEqual([])
  expect(site.worker.exitCode, 'the worker is still running').toBeNull()
  expect(site.web.exitCode, 'the web process is still running').toBeNull()
}
