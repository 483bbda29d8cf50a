// Image-wall benchmark (issue: the showroom): GET /api/wall by cursor over 100,000 works
// on the wall, 20 concurrent readers, cursors spread over the whole depth, for sort=new,
// sort=hot and a signed-in reader (whose likes are looked up). Each figure is put beside
// the same query sent straight to PostgreSQL with pg as the floor. The app figures call
// the route handler in-process (a Request handed to the exported handler, as Next.js
// would). Prints figures; asserts nothing.   Run: npm run bench:wall   (BENCH_WORKS=20000 for a quicker run)
import pg from 'pg'
import { at } from '../tests/helpers/present'
import { benchDatabase, fmt, load, percentile, printTable, ratio, timed, type Row } from './support'

const WORKS = Number(process.env.BENCH_WORKS ?? 100_000)
const CONCURRENCY = 20
const REQUESTS = 2_000
const LIMIT = 30

const database = await benchDatabase('wall')
const { callRoute, createUser } = await import('../tests/helpers/call-route')
const wallRoute = await import('../app/api/wall/route')
const { encodeCursor } = await import('../lib/wall/cursor')
const { disconnectDb } = await import('../lib/db')
const pool = new pg.Pool({ connectionString: database.url, max: 20 })

// What lib/wall/list-wall.ts reads per page (works, authors, the caller's likes) as plain columns:
// the floor, without the lookups by key and the JSON its statement writes each work as.
const floorSql = (key: '"listedAt"' | '"likes"', signedIn: boolean) => `
  SELECT w."id", w."taskId", w."modelType", w."modelName", w."thumbUrl", w."imageUrl", w."width", w."height", w."prompt",
         w."likes", w."featured", w.${key} AS "key", u."name" AS "authorName", u."avatar" AS "authorAvatar",
         ${signedIn ? 'EXISTS (SELECT 1 FROM "WallLike" l WHERE l."workId" = w."id" AND l."userId" = $3)' : 'NULL'} AS "liked"
  FROM (
    SELECT * FROM "WallWork" w
    WHERE w."status" = 'APPROVED' AND (w.${key}, w."id") < ($1, $2)
    ORDER BY w.${key} DESC, w."id" DESC
    LIMIT ${LIMIT + 1}
  ) w JOIN "User" u ON u."id" = w."userId"
  ORDER BY w.${key} DESC, w."id" DESC`
const FLOOR_NEW = floorSql('"listedAt"', false)
const FLOOR_HOT = floorSql('"likes"', false)
const FLOOR_NEW_SIGNED_IN = floorSql('"listedAt"', true)

try {
  const viewer = await createUser()
  const seeded = await timed(async () => {
    await pool.query(
      `INSERT INTO "User" (id, username, name, "updatedAt") SELECT 'bench-u' || g, 'bench_u' || g, '画手' || g, now() FROM generate_series(1, 200) g`,
    )
    await pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('bench-model', 'demo', 'demo', now())`)
    await pool.query(
      `INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "priceSnapshot", "chargedPoints", "deadlineAt", "updatedAt")
       SELECT 'bench-t' || g, 'bench-u' || (g % 200 + 1), 'SD_TEXT2IMG', 'SUCCESS', 'DONE', jsonb_build_object('prompt', '山间云海 ' || g), 'bench-model', '{}', 1, now(), now()
       FROM generate_series(1, $1) g`,
      [WORKS],
    )
    // 95% on the wall, the rest waiting or hidden; listedAt one second apart with ties every 50; likes skewed.
    await pool.query(
      `INSERT INTO "WallWork" (id, "taskId", "userId", status, "modelType", "modelName", "imageUrl", "thumbUrl", width, height, prompt, likes, "listedAt", "updatedAt")
       SELECT 'bench-w' || lpad(g::text, 7, '0'), 'bench-t' || g, 'bench-u' || (g % 200 + 1),
              (CASE WHEN g % 20 = 0 THEN 'PENDING' WHEN g % 20 = 1 THEN 'HIDDEN' ELSE 'APPROVED' END)::"WallStatus",
              (CASE WHEN g % 3 = 0 THEN 'MID_JOURNEY' ELSE 'STABLE_DIFFUSION' END)::"ModelType", 'demo',
              '/files/results/b/' || g || '.png', '/files/results/b/' || g || '.thumb.webp', 512, 512 + (g % 7) * 64, '山间云海 ' || g,
              floor(power(random(), 6) * 500)::int,
              CASE WHEN g % 20 > 1 THEN timestamp '2026-01-01' + (g / 50) * interval '1 second' END, now()
       FROM generate_series(1, $1) g`,
      [WORKS],
    )
    await pool.query(`INSERT INTO "WallLike" ("workId", "userId") SELECT id, $1 FROM "WallWork" WHERE status = 'APPROVED' AND random() < 0.05`, [viewer.id])
    await pool.query('ANALYZE')
  })
  console.log(`seeded ${WORKS.toLocaleString()} works (95% on the wall) in ${(seeded.ms / 1000).toFixed(1)} s`)

  // Cursors spread over the whole wall: the rows a reader would have stopped at.
  const sample = await pool.query<{ id: string; listedAt: Date; likes: number }>(
    `SELECT id, "listedAt", likes FROM "WallWork" WHERE status = 'APPROVED' ORDER BY random() LIMIT 500`,
  )
  const newCursors = sample.rows.map((r) => ({ text: encodeCursor({ key: r.listedAt.getTime(), id: r.id }), listedAt: r.listedAt, id: r.id }))
  const hotCursors = sample.rows.map((r) => ({ text: encodeCursor({ key: r.likes, id: r.id }), likes: r.likes, id: r.id }))
  const pick = <T>(list: T[], i: number) => at(list, i % list.length)

  async function app(query: (i: number) => Record<string, string | number>, token?: string) {
    return load(REQUESTS, CONCURRENCY, async (i) => {
      const res = await callRoute(wallRoute.GET, { query: query(i), token })
      if (res.status !== 200 || res.body.data.list.length === 0) throw new Error(JSON.stringify(res.body).slice(0, 200))
    })
  }
  const floor = (sql: string, args: (i: number) => unknown[]) =>
    load(REQUESTS, CONCURRENCY, async (i) => {
      const { rows } = await pool.query(sql, args(i))
      if (rows.length === 0) throw new Error('empty page')
    })

  // Warm both paths (plans, pools) before measuring.
  await app((i) => ({ limit: LIMIT, cursor: pick(newCursors, i).text }))
  await floor(FLOOR_NEW, (i) => [pick(newCursors, i).listedAt, pick(newCursors, i).id])

  const runs: Array<[string, Awaited<ReturnType<typeof load>>, Awaited<ReturnType<typeof load>>]> = []
  runs.push([
    'sort=new, random depth',
    await app((i) => ({ limit: LIMIT, cursor: pick(newCursors, i).text })),
    await floor(FLOOR_NEW, (i) => [pick(newCursors, i).listedAt, pick(newCursors, i).id]),
  ])
  runs.push([
    'sort=hot, random depth',
    await app((i) => ({ limit: LIMIT, sort: 'hot', cursor: pick(hotCursors, i).text })),
    await floor(FLOOR_HOT, (i) => [pick(hotCursors, i).likes, pick(hotCursors, i).id]),
  ])
  runs.push([
    'sort=new, signed in (likes looked up)',
    await app((i) => ({ limit: LIMIT, cursor: pick(newCursors, i).text }), viewer.token),
    await floor(FLOOR_NEW_SIGNED_IN, (i) => [pick(newCursors, i).listedAt, pick(newCursors, i).id, viewer.id]),
  ])
  runs.push(['sort=new, first page', await app(() => ({ limit: LIMIT })), await floor(FLOOR_NEW, () => [new Date('2100-01-01'), ''])])

  const rows: Row[] = runs.flatMap(([what, ours, base]) => [
    {
      what: `${what}: p50`,
      ours: fmt(percentile(ours.latencies, 50)),
      floor: fmt(percentile(base.latencies, 50)),
      ratio: ratio(percentile(ours.latencies, 50), percentile(base.latencies, 50)),
    },
    {
      what: `${what}: p99`,
      ours: fmt(percentile(ours.latencies, 99)),
      floor: fmt(percentile(base.latencies, 99)),
      ratio: ratio(percentile(ours.latencies, 99), percentile(base.latencies, 99)),
    },
    {
      what: `${what}: throughput`,
      ours: `${Math.round(REQUESTS / (ours.wallMs / 1000))} req/s`,
      floor: `${Math.round(REQUESTS / (base.wallMs / 1000))} q/s`,
      ratio: ratio(base.wallMs, ours.wallMs),
    },
  ])
  printTable(
    `GET /api/wall at ${WORKS.toLocaleString()} works, ${CONCURRENCY} concurrent readers, ${REQUESTS} requests each, limit ${LIMIT} (target: p99 ≤ 50 ms)`,
    rows,
  )
} finally {
  await pool.end()
  await disconnectDb()
  await database.drop()
}
