// Speed over HTTP: the production build started as a site owner starts it (scripts/start.ts,
// `next start` behind the small peer-address server), on a fresh database with 100,000
// cards, works on the wall, tasks, users, orders and charge records (and, for 100 signed-in
// readers, what their own pages show), loaded by autocannon with 10 connections. For each
// route: throughput, p50, p99 and the throughput's ratio to GET /api/health, a route
// handler that does nothing (the framework's ceiling on this machine, measured in the same
// run, in rounds alternating with each route's), and the CPU each request costs the web
// process tree and the database backends (steadier than req/s on a shared machine). Then
// the memory of the web process tree (RSS: the launcher and the Next.js server) under
// steady mixed load, after 2 minutes and at the end. No worker process runs: submitted
// tasks stay queued, so the CPU is the web's alone. Prints figures; asserts nothing.
//   Run: npm run build && npm run bench:http -- [--minutes 10] [--seconds 15] [--only <route name part>[,<another>]]
// (BENCH_ROWS=20000 for a quicker seed; PORT defaults to 3341.)
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { seedLists } from './seed-lists'
import { seedReaderRows } from './seed-readers'
import { siteCpu, startSite, treeRssMb } from './site'
import { wrkLoad } from './wrk'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    only: { type: 'string' },
    client: { type: 'string', default: 'autocannon' },
  },
})
const MINUTES = Number(args.minutes)
const SECONDS = Number(args.seconds)
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
const CONNECTIONS = 10
const PORT = Number(process.env.PORT ?? 3341)
const BASE = `http://127.0.0.1:${PORT}`
type Client = 'autocannon' | 'wrk'
const CLIENTS = args.client.split(',') as Client[]
if (!CLIENTS.every((c) => c === 'autocannon' || c === 'wrk')) throw new Error('--client: autocannon, wrk or autocannon,wrk')

const site = await startSite('http', PORT)
const { issueToken } = await import('../lib/auth/token')
const pool = new pg.Pool({ connectionString: site.databaseUrl, max: 4 })

/** `paths`: one per token, each request taking the path of the token it signs in with. */
type Target = { name: string; path: string; method?: 'GET' | 'POST'; tokens?: string[]; paths?: string[]; body?: string }
type Figures = { name: string; rps: number; p50: number; p99: number; errors: number; served: number; webCpuMs: number; dbCpuMs: number }

const databaseName = new URL(site.databaseUrl).pathname.slice(1)
const backends = async () =>
  (await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [databaseName])).rows.map((r) => r.pid)

async function run(target: Target, seconds: number, client: Client = CLIENTS[0]!): Promise<Figures> {
  const cpu = await siteCpu(site.pid, backends)
  const figures = client === 'wrk' ? { name: target.name, ...(await wrkLoad(BASE, target, CONNECTIONS, seconds)) } : await load(target, seconds)
  const used = await cpu()
  return { ...figures, webCpuMs: used.web, dbCpuMs: used.db }
}

function load(target: Target, seconds: number): Promise<Omit<Figures, 'webCpuMs' | 'dbCpuMs'>> {
  let next = 0
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: BASE,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: target.method ?? 'GET',
            path: target.path,
            body: target.body,
            setupRequest: (req) => {
              const headers: Record<string, string> = { ...(req.headers as Record<string, string>) }
              const i = next++
              if (target.body) headers['content-type'] = 'application/json'
              if (target.tokens) headers.authorization = `Bearer ${target.tokens[i % target.tokens.length]}`
              return { ...req, headers, path: target.paths ? target.paths[i % target.paths.length] : req.path }
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error)
        const served = result.requests.total - result.non2xx - result.errors - result.timeouts
        resolve({
          name: target.name,
          rps: served / (result.duration || seconds),
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.non2xx + result.errors + result.timeouts,
          served,
        })
      },
    )
  })
}

/** Each reader with its own path (readers without one, say no settled order, are left out). */
function perReader(tokens: string[], paths: Array<string | undefined>): Pick<Target, 'path' | 'tokens' | 'paths'> {
  const kept = tokens.flatMap((token, i) => (paths[i] ? [[token, paths[i]] as const] : []))
  return { path: kept[0]![1], tokens: kept.map(([token]) => token), paths: kept.map(([, path]) => path) }
}

/** Rounds of one route as one figure: mean throughput, median p50, worst p99, all errors. */
function merge(rounds: Figures[]): Figures {
  const p50s = rounds.map((r) => r.p50).sort((a, b) => a - b)
  return {
    name: rounds[0]!.name,
    rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    served: rounds.reduce((sum, r) => sum + r.served, 0),
    webCpuMs: rounds.reduce((sum, r) => sum + r.webCpuMs, 0),
    dbCpuMs: rounds.reduce((sum, r) => sum + r.dbCpuMs, 0),
  }
}

try {
  const ids = await seedLists(pool, ROWS)
  const readerIds = await seedReaderRows(pool)
  const users = Array.from({ length: 2000 }, (_, i) => `bench-u${i + 1}`)
  const tokens = await Promise.all(users.map((id) => issueToken(id, 0)))
  // Readers: 100 signed-in users, each back within a second or two (a page polling, a
  // person clicking), as on a site in use. The POST run spreads over all 2,000.
  const readers = tokens.slice(0, 100)
  const adminToken = [await issueToken(ids.admin, 0)]
  const owner = [tokens[0]!] // bench-u1 owns 500 tasks of the 100,000
  const submit = JSON.stringify({ type: 'SD_TEXT2IMG', params: { prompt: '一只橘猫坐在窗台上', count: 1 } })

  const ceiling: Target = { name: 'GET /api/health (ceiling)', path: '/api/health' }
  const targets: Target[] = [
    { name: 'GET /api/site-config/site-info', path: '/api/site-config/site-info' },
    { name: 'GET /api/users/profile (signed in)', path: '/api/users/profile', tokens: readers },
    { name: `GET /api/admin/cards page 1 (${ROWS.toLocaleString()} cards)`, path: '/api/admin/cards?page=1&pageSize=20', tokens: adminToken },
    {
      name: 'GET /api/admin/cards?status=SUCCESS last page',
      path: `/api/admin/cards?status=SUCCESS&page=${Math.ceil((ROWS * 0.9) / 20)}&pageSize=20`,
      tokens: adminToken,
    },
    { name: `GET /api/admin/wall page 1 (${ROWS.toLocaleString()} works)`, path: '/api/admin/wall?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/wall?status=PENDING page 1', path: '/api/admin/wall?status=PENDING&page=1&pageSize=20', tokens: adminToken },
    { name: `GET /api/users page 1 (admin, ${ROWS.toLocaleString()} users)`, path: '/api/users?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/users?role=MANAGER page 1 (admin)', path: '/api/users?role=MANAGER&page=1&pageSize=20', tokens: adminToken },
    { name: `GET /api/admin/tasks page 1 (${ROWS.toLocaleString()} tasks)`, path: '/api/admin/tasks?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/tasks?status=SUCCESS page 1', path: '/api/admin/tasks?status=SUCCESS&page=1&pageSize=20', tokens: adminToken },
    { name: `GET /api/admin/orders page 1 (${ROWS.toLocaleString()} orders)`, path: '/api/admin/orders?page=1&pageSize=20', tokens: adminToken },
    {
      name: 'GET /api/admin/orders?status=PENDING&channel=WECHAT page 1',
      path: '/api/admin/orders?status=PENDING&channel=WECHAT&page=1&pageSize=20',
      tokens: adminToken,
    },
    {
      name: `GET /api/admin/charge-records page 1 (${ROWS.toLocaleString()} records)`,
      path: '/api/admin/charge-records?page=1&pageSize=20',
      tokens: adminToken,
    },
    { name: 'GET /api/admin/charge-records?type=BALANCE page 1', path: '/api/admin/charge-records?type=BALANCE&page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/wall (first page, signed in)', path: '/api/wall?limit=30', tokens: readers },
    { name: 'GET /api/wall (anonymous)', path: '/api/wall?limit=30' },
    { name: 'GET /api/tasks (500 tasks of the caller)', path: '/api/tasks?page=1&pageSize=20', tokens: owner },
    // The caller's other pages, each read by the 100 readers in turn.
    {
      name: 'GET /api/tasks/{id} (a finished task)',
      ...perReader(
        readers,
        readerIds.map((r) => `/api/tasks/${r.task}`),
      ),
    },
    { name: 'GET /api/account/wallet', path: '/api/account/wallet', tokens: readers },
    { name: 'GET /api/users/ledger (60 rows each)', path: '/api/users/ledger?limit=20', tokens: readers },
    { name: 'GET /api/orders (50 orders each)', path: '/api/orders?page=1&pageSize=20', tokens: readers },
    {
      name: 'GET /api/orders/{id} (a settled order)',
      ...perReader(
        readers,
        readerIds.map((r) => r.order && `/api/orders/${r.order}`),
      ),
    },
    { name: 'GET /api/my-cards (10 cards each)', path: '/api/my-cards', tokens: readers },
    { name: 'GET /api/users/my/invite', path: '/api/users/my/invite', tokens: readers },
    { name: "GET /api/users/my/invite/records (5 invitees' orders)", path: '/api/users/my/invite/records?page=1&pageSize=20', tokens: readers },
    { name: 'GET /api/chat/models', path: '/api/chat/models', tokens: readers },
    { name: 'GET /api/chat/conversations (20 each)', path: '/api/chat/conversations', tokens: readers },
    {
      name: 'GET /api/chat/conversations/{id}/messages (40)',
      ...perReader(
        readers,
        readerIds.map((r) => `/api/chat/conversations/${r.conversation}/messages`),
      ),
    },
    { name: 'GET /api/videos/mine (3 each)', path: '/api/videos/mine', tokens: readers },
    { name: 'GET /api/mj/tasks (10 trees each)', path: '/api/mj/tasks?page=1&pageSize=20', tokens: tokens.slice(1, 101) },
    // The console's other reads.
    { name: 'GET /api/admin/tasks/{id}', path: '/api/admin/tasks/bench-t200', tokens: adminToken },
    { name: 'GET /api/admin/orders/{id}', path: '/api/admin/orders/bench-o2002', tokens: adminToken },
    { name: 'GET /api/admin/commission/records page 1', path: '/api/admin/commission/records?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/invites page 1', path: '/api/admin/invites?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/video-purchases page 1', path: '/api/admin/video-purchases?page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/memberships page 1', path: '/api/admin/memberships?kind=IMAGE&page=1&pageSize=20', tokens: adminToken },
    { name: 'GET /api/admin/models', path: '/api/admin/models', tokens: adminToken },
    { name: 'GET /api/admin/products', path: '/api/admin/products', tokens: adminToken },
    { name: 'GET /api/admin/chat-usage (7 days, 2,000 answers)', path: '/api/admin/chat-usage?days=7', tokens: adminToken },
    {
      name: 'GET /api/admin/charge-records/group-by-date (30 days)',
      path: '/api/admin/charge-records/group-by-date?from=2026-01-01&to=2026-01-30',
      tokens: adminToken,
    },
    { name: 'GET /api/admin/analysis (30 days)', path: '/api/admin/analysis?from=2026-01-01&to=2026-01-30', tokens: adminToken },
    { name: 'POST /api/tasks (demo backend)', path: '/api/tasks', method: 'POST', tokens, body: submit },
  ]

  if (args.only) targets.splice(0, targets.length, ...targets.filter((t) => args.only!.split(',').some((part) => t.name.includes(part))))
  // Warm every route (lazily loaded chunks, plans, pools) before measuring.
  for (const t of [ceiling, ...targets]) await run(t, 2)
  // Other work on a shared machine comes and goes, so each route is measured in rounds
  // alternating with the ceiling, and its ratio is to the ceiling's rounds beside it.
  const ROUNDS = 3
  const rows: Array<Figures & { ceiling: Figures }> = []
  const roundSeconds = Math.max(1, Math.round(SECONDS / ROUNDS))
  for (const t of targets) {
    const mine = new Map(CLIENTS.map((c) => [c, [] as Figures[]]))
    const tops = new Map(CLIENTS.map((c) => [c, [] as Figures[]]))
    for (let r = 0; r < ROUNDS; r++) {
      for (const c of CLIENTS) {
        tops.get(c)!.push(await run(ceiling, roundSeconds, c))
        mine.get(c)!.push(await run(t, roundSeconds, c))
      }
    }
    for (const c of CLIENTS) {
      const name = CLIENTS.length > 1 ? `${t.name} [${c}]` : t.name
      rows.push({ ...merge(mine.get(c)!), name, ceiling: merge(tops.get(c)!) })
    }
  }

  console.log(
    `\nHTTP, ${CONNECTIONS} connections (${CLIENTS.join(' and ')}), ${ROWS.toLocaleString()} rows of each list; each route ${SECONDS} s in ${ROUNDS} rounds, ` +
      'each round beside a round of the ceiling (GET /api/health); p50/p99: median and worst of the rounds;\n' +
      'web CPU: the web process tree per request served; web CPU ratio = ceiling web CPU/req ÷ route web CPU/req, the throughput ratio\n' +
      'when the single-threaded web process is what limits (PostgreSQL runs on the other core); db CPU: its backends per request',
  )
  console.table(
    rows.map((f) => ({
      route: f.name,
      'req/s': Math.round(f.rps),
      'p50 ms': f.p50,
      'p99 ms': f.p99,
      'ceiling req/s': Math.round(f.ceiling.rps),
      'ceiling p99 ms': f.ceiling.p99,
      'ratio to ceiling': `${(f.rps / f.ceiling.rps).toFixed(2)}×`,
      'web CPU ms/req': (f.webCpuMs / f.served).toFixed(2),
      'ceiling web CPU ms/req': (f.ceiling.webCpuMs / f.ceiling.served).toFixed(2),
      'web CPU ratio': `${(f.ceiling.webCpuMs / f.ceiling.served / (f.webCpuMs / f.served)).toFixed(2)}×`,
      'db CPU ms/req': (f.dbCpuMs / f.served).toFixed(2),
      'non-2xx': f.errors,
    })),
  )

  // What a 总计 N 条 costs PostgreSQL: counting every row (as the lists did) or summing the kept counters.
  const sqlMs = async (sql: string) => {
    for (let i = 0; i < 5; i++) await pool.query(sql)
    const start = performance.now()
    for (let i = 0; i < 50; i++) await pool.query(sql)
    return ((performance.now() - start) / 50).toFixed(2)
  }
  console.log("\nThe lists' totals in PostgreSQL, mean of 50 sequential queries (ms)")
  console.table([
    { total: 'all cards', 'count(*)': await sqlMs(`SELECT count(*) FROM "Card"`), 'kept counters': await sqlMs(`SELECT sum(n) FROM "CardCount"`) },
    {
      total: 'cards SUCCESS',
      'count(*)': await sqlMs(`SELECT count(*) FROM "Card" WHERE status = 'SUCCESS'`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "CardCount" WHERE status = 'SUCCESS'`),
    },
    { total: 'all wall works', 'count(*)': await sqlMs(`SELECT count(*) FROM "WallWork"`), 'kept counters': await sqlMs(`SELECT sum(n) FROM "WallWorkCount"`) },
    {
      total: 'wall works PENDING',
      'count(*)': await sqlMs(`SELECT count(*) FROM "WallWork" WHERE status = 'PENDING'`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "WallWorkCount" WHERE status = 'PENDING'`),
    },
    { total: 'all users', 'count(*)': await sqlMs(`SELECT count(*) FROM "User"`), 'kept counters': await sqlMs(`SELECT sum(n) FROM "UserCount"`) },
    { total: 'all tasks', 'count(*)': await sqlMs(`SELECT count(*) FROM "Task"`), 'kept counters': await sqlMs(`SELECT sum(n) FROM "TaskStatusCount"`) },
    {
      total: 'tasks SUCCESS',
      'count(*)': await sqlMs(`SELECT count(*) FROM "Task" WHERE status = 'SUCCESS'`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "TaskStatusCount" WHERE status = 'SUCCESS'`),
    },
    { total: 'all orders', 'count(*)': await sqlMs(`SELECT count(*) FROM "Order"`), 'kept counters': await sqlMs(`SELECT sum(n) FROM "OrderCount"`) },
    {
      total: 'all charge records',
      'count(*)': await sqlMs(`SELECT count(*) FROM "ChargeRecord"`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "ChargeRecordCount"`),
    },
    {
      total: 'commission records',
      'count(*)': await sqlMs(`SELECT count(*) FROM "CommissionRecord"`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "CommissionRecordCount"`),
    },
    {
      total: 'invited users',
      'count(*)': await sqlMs(`SELECT count(*) FROM "User" WHERE "inviterId" IS NOT NULL`),
      'kept counters': await sqlMs(`SELECT sum(n) FROM "UserCount" WHERE invited`),
    },
    {
      total: 'tasks per day and status, 30 days',
      'count(*)': await sqlMs(
        `SELECT beijing_day("createdAt"), status, count(*) FROM "Task" WHERE "createdAt" >= '2025-12-31 16:00' AND "createdAt" < '2026-01-30 16:00' GROUP BY 1, 2`,
      ),
      'kept counters': await sqlMs(`SELECT day, status, sum(n) FROM "TaskDayCount" WHERE day BETWEEN '2026-01-01' AND '2026-01-30' GROUP BY 1, 2`),
    },
  ])
  // What the filters that still count their matches cost (no counter can answer them).
  console.log('\nCounted totals of searches, users and dates, mean of 50 sequential queries (ms)')
  console.table([
    {
      total: 'users, keyword "bench_x12" (sequential scan)',
      ms: await sqlMs(`SELECT count(*) FROM "User" WHERE username ILIKE '%bench_x12%' OR name ILIKE '%bench_x12%' OR mobile LIKE '%bench_x12%'`),
    },
    {
      total: 'tasks of the users a search names (11 owners, 5,500 tasks)',
      ms: await sqlMs(
        `SELECT count(*) FROM "Task" WHERE "userId" = ANY (ARRAY(SELECT id FROM "User" WHERE username ILIKE '%bench\\_u7%' OR name ILIKE '%bench\\_u7%' OR id = 'bench_u7'))`,
      ),
    },
    { total: 'tasks, one day', ms: await sqlMs(`SELECT count(*) FROM "Task" WHERE "createdAt" >= '2026-01-01' AND "createdAt" < '2026-01-02'`) },
    { total: 'tasks, every date (100,000)', ms: await sqlMs(`SELECT count(*) FROM "Task" WHERE "createdAt" >= '2000-01-01' AND "createdAt" < '2100-01-01'`) },
    {
      total: 'orders of one user (50)',
      ms: await sqlMs(
        `SELECT count(*) FROM "Order" WHERE "userId" = ANY (ARRAY(SELECT id FROM "User" WHERE id = 'bench-u7' OR username LIKE '%bench-u7%' OR name LIKE '%bench-u7%' OR mobile = 'bench-u7')) OR "outTradeNo" = 'bench-u7'`,
      ),
    },
    { total: 'orders, every date (100,000)', ms: await sqlMs(`SELECT count(*) FROM "Order" WHERE "createdAt" >= '2000-01-01' AND "createdAt" < '2100-01-01'`) },
    { total: 'charge records of one user (50)', ms: await sqlMs(`SELECT count(*) FROM "ChargeRecord" WHERE "userId" = 'bench-u7'`) },
  ])

  // Steady mixed load: the reads above in turn, RSS sampled after 2 minutes and at the end.
  const mixed = targets.filter((t) => t.method !== 'POST')
  const rssStart = await treeRssMb(site.pid)
  const samples: Array<[number, number]> = []
  const started = Date.now()
  while (Date.now() - started < MINUTES * 60_000) {
    for (const t of mixed) {
      await run(t, 5)
      const minute = (Date.now() - started) / 60_000
      if (samples.length === 0 && minute >= Math.min(2, MINUTES)) samples.push([minute, await treeRssMb(site.pid)])
      if (Date.now() - started >= MINUTES * 60_000) break
    }
  }
  samples.push([(Date.now() - started) / 60_000, await treeRssMb(site.pid)])
  console.log(`\nMemory of the web process tree (RSS) under steady mixed load, ${MINUTES} min`)
  console.table([
    { when: 'after seeding, before the load', 'RSS MB': Math.round(rssStart) },
    ...samples.map(([m, mb]) => ({ when: `after ${m.toFixed(1)} min`, 'RSS MB': Math.round(mb) })),
  ])
  if (samples.length === 2) console.log(`growth from ${samples[0]![0].toFixed(1)} min to the end: ${Math.round(samples[1]![1] - samples[0]![1])} MB`)
} finally {
  await pool.end()
  await site.stop()
}
