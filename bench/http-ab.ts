// Two builds of the site side by side over HTTP: this checkout and another (an older commit,
// checked out and built elsewhere), both started as a site owner starts them, on one
// database seeded as bench/http.ts seeds it. Each list route (the profile and a chat's messages too) is loaded in rounds that
// alternate between the builds, each round beside a round of that build's GET /api/health
// (the framework's ceiling), so a shared machine's drift falls on both alike. Prints, per
// route, the median over the rounds of each build's throughput ratio and web CPU ratio to its
// ceiling. Asserts nothing.
//   Run: git worktree add /tmp/before <commit> && (cd /tmp/before && npm install && npm run build)
//        npm run build && npm run bench:http-ab -- --against /tmp/before [--rounds 5] [--seconds 5] [--only <name part>[,…]]
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { seedLists } from './seed-lists'
import { seedReaderRows } from './seed-readers'
import { siteCpu, startSite } from './site'

const { values: args } = parseArgs({
  options: { against: { type: 'string' }, rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' }, only: { type: 'string' } },
})
if (!args.against) throw new Error('--against <a checkout of the other build, built with npm run build>')
const ROUNDS = Number(args.rounds)
const SECONDS = Number(args.seconds)
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000)

const mine = await startSite('ab', 3351)
const theirs = await startSite('ab', 3352, { root: path.resolve(args.against), database: { url: mine.databaseUrl } })
const pool = new pg.Pool({ connectionString: mine.databaseUrl, max: 4 })
const { issueToken } = await import('../lib/auth/token')

type Target = { name: string; path: string; token?: string }
type Site = typeof mine

async function run(site: Site, target: Target, seconds: number) {
  const cpu = await siteCpu(site.pid, async () => [])
  const result = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: site.base,
        connections: 10,
        duration: seconds,
        requests: [{ method: 'GET', path: target.path, headers: target.token ? { authorization: `Bearer ${target.token}` } : {} }],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    ),
  )
  const served = result.requests.total - result.non2xx - result.errors - result.timeouts
  if (served < result.requests.total) throw new Error(`${target.name} on ${site.base}: ${result.requests.total - served} requests failed`)
  return { rps: served / result.duration, webCpuMs: (await cpu()).web / served }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

try {
  const { admin } = await seedLists(pool, ROWS)
  const [reader] = await seedReaderRows(pool) // bench-u1's own rows
  const adminToken = await issueToken(admin, 0)
  const owner = await issueToken('bench-u1', 0)
  const ceiling: Target = { name: 'GET /api/health (ceiling)', path: '/api/health' }
  const targets: Target[] = [
    { name: 'GET /api/users/profile', path: '/api/users/profile', token: owner },
    { name: 'GET /api/admin/cards page 1', path: '/api/admin/cards?page=1&pageSize=20', token: adminToken },
    {
      name: 'GET /api/admin/cards?status=SUCCESS last page',
      path: `/api/admin/cards?status=SUCCESS&page=${Math.ceil((ROWS * 0.9) / 20)}&pageSize=20`,
      token: adminToken,
    },
    { name: 'GET /api/admin/wall page 1', path: '/api/admin/wall?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/wall?status=PENDING', path: '/api/admin/wall?status=PENDING&page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/users page 1', path: '/api/users?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/tasks page 1', path: '/api/admin/tasks?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/tasks?status=SUCCESS', path: '/api/admin/tasks?status=SUCCESS&page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/orders page 1', path: '/api/admin/orders?page=1&pageSize=20', token: adminToken },
    {
      name: 'GET /api/admin/orders?status=PENDING&channel=WECHAT',
      path: '/api/admin/orders?status=PENDING&channel=WECHAT&page=1&pageSize=20',
      token: adminToken,
    },
    { name: 'GET /api/admin/charge-records page 1', path: '/api/admin/charge-records?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/commission/records page 1', path: '/api/admin/commission/records?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/admin/invites page 1', path: '/api/admin/invites?page=1&pageSize=20', token: adminToken },
    { name: 'GET /api/tasks (500 tasks of the caller)', path: '/api/tasks?page=1&pageSize=20', token: owner },
    { name: 'GET /api/wall (signed in)', path: '/api/wall?limit=30', token: owner },
    { name: 'GET /api/chat/conversations/{id}/messages (40)', path: `/api/chat/conversations/${reader!.conversation}/messages`, token: owner },
  ]
  if (args.only) targets.splice(0, targets.length, ...targets.filter((t) => args.only!.split(',').some((part) => t.name.includes(part))))
  for (const t of [ceiling, ...targets]) for (const site of [theirs, mine]) await run(site, t, 2) // warm both

  const rows = []
  for (const t of targets) {
    const ratios = { theirs: { rps: [] as number[], cpu: [] as number[] }, mine: { rps: [] as number[], cpu: [] as number[] } }
    for (let r = 0; r < ROUNDS; r++) {
      // With a fixed order the build measured first in each round came out ahead on every
      // route (by 0.02-0.09, the same build on both sides), so the order swaps every round.
      const builds = [['theirs', theirs] as const, ['mine', mine] as const]
      for (const [which, site] of r % 2 ? builds.reverse() : builds) {
        const top = await run(site, ceiling, SECONDS)
        const route = await run(site, t, SECONDS)
        ratios[which].rps.push(route.rps / top.rps)
        ratios[which].cpu.push(top.webCpuMs / route.webCpuMs)
      }
    }
    rows.push({
      route: t.name,
      'ratio, other build': `${median(ratios.theirs.rps).toFixed(2)}×`,
      'ratio, this build': `${median(ratios.mine.rps).toFixed(2)}×`,
      'web CPU ratio, other build': `${median(ratios.theirs.cpu).toFixed(2)}×`,
      'web CPU ratio, this build': `${median(ratios.mine.cpu).toFixed(2)}×`,
    })
  }
  console.log(
    `\nThis build against ${args.against}, one database (${ROWS.toLocaleString()} rows of each list), 10 connections; per route ${ROUNDS} rounds of ${SECONDS} s ` +
      'per build, alternating (and which goes first), each beside a round of its own GET /api/health. Ratio: req/s ÷ the ceiling’s; web CPU ratio: the ceiling’s web CPU ' +
      'per request ÷ the route’s. Medians of the rounds.',
  )
  console.table(rows)
} finally {
  await pool.end()
  await theirs.stop()
  await mine.stop()
}
