// Card-key benchmark (issue: card keys): import 100,000 keys, list page 1 and the last
// page under 50 concurrent requests, and redemption throughput. Every figure is put
// beside the same work done straight against PostgreSQL with pg (no framework) as the
// floor. The app figures call the route handlers in-process (a Request object handed to
// the exported handler, as Next.js would), not over HTTP: no server, socket or JSON over
// the wire is in them. Prints figures; asserts nothing.   Run: npm run bench:cards
// (BENCH_KEYS=20000 for a quicker run; at least 4 × 2,000 redemptions' worth of keys.)
import pg from 'pg'
import { at } from '../tests/helpers/present'
import { benchDatabase, fmt, load, percentile, printTable, ratio, timed, type Row } from './support'

const TOTAL_KEYS = Number(process.env.BENCH_KEYS ?? 100_000)
const CONCURRENCY = 50
const LIST_REQUESTS = 500
const REDEMPTIONS = 2_000

const database = await benchDatabase('cards')
const { callRoute, createUser } = await import('../tests/helpers/call-route')
const importRoute = await import('../app/api/admin/cards/batch_import/route')
const listRoute = await import('../app/api/admin/cards/route')
const redeemRoute = await import('../app/api/my-cards/redeem/route')
const { checkPendingCards } = await import('../lib/cards/check-pending-cards')
const { hashKey, maskKey, sealKey } = await import('../lib/cards/card-key')
const { REDEEM_LIMITS } = await import('../lib/cards/redeem-card')
const { db, disconnectDb } = await import('../lib/db')
const pool = new pg.Pool({ connectionString: database.url, max: 20 })

try {
  const admin = await createUser({ role: 'ADMIN' })
  const keys = Array.from({ length: TOTAL_KEYS }, (_, i) => `BENCH-${i.toString(36).padStart(6, '0')}-${(i * 7919).toString(36)}`)

  // 1. Import: 10 requests of 10,000 keys, then the background check until none is PENDING.
  const imported = await timed(async () => {
    for (let i = 0; i < keys.length; i += 10_000) {
      const res = await callRoute(importRoute.POST, { token: admin.token, body: { cards: keys.slice(i, i + 10_000), points: 10 } })
      if (res.status !== 200) throw new Error(JSON.stringify(res.body))
    }
  })
  const checked = await timed(async () => {
    while (await checkPendingCards()) {}
  })
  // Floor: what each import request commits, in one transaction per 10,000 keys: the batch
  // row, the cards (hash, sealed key and mask computed the same way) in one INSERT ...
  // unnest, the audit row and the NOTIFY. The cards go into a table of their own, built
  // like "Card" (columns, defaults, indexes, the batch foreign key), so the floor commits
  // as much index work as the app without colliding with its rows.
  await pool.query(`CREATE TABLE "CardFloor" (LIKE "Card" INCLUDING ALL)`)
  await pool.query(`ALTER TABLE "CardFloor" ADD FOREIGN KEY ("batchId") REFERENCES "CardBatch"("id")`)
  const floorImport = await timed(async () => {
    for (let i = 0; i < keys.length; i += 10_000) {
      const part = keys.slice(i, i + 10_000)
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const batch = await client.query(`INSERT INTO "CardBatch"(points, count, "createdById") VALUES (10, $1, $2) RETURNING id`, [part.length, admin.id])
        await client.query(
          `INSERT INTO "CardFloor"("keyHash","cardKeyEnc","keyMask",points,"batchId","expiresAt")
           SELECT h, e, m, 10, $4, NULL FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(h, e, m, n) ORDER BY n`,
          [part.map((k) => hashKey(k)), part.map((k) => sealKey(k)), part.map((k) => maskKey(k)), batch.rows[0].id],
        )
        await client.query(
          `INSERT INTO "AdminAuditLog"("actorId","actorName","actorRole",action,"targetType","targetId",after,ip) VALUES ($1, $2, 'ADMIN', 'cards.import', 'CardBatch', $3, $4, '10.0.0.1')`,
          [admin.id, admin.username, String(batch.rows[0].id), JSON.stringify({ count: part.length, points: 10, note: null, expiresAt: null })],
        )
        await client.query(`SELECT pg_notify('aiimg_jobs', 'check-pending-cards')`)
        await client.query('COMMIT')
      } finally {
        client.release()
      }
    }
  })

  // 2. Listing: page 1 and the last page, 500 requests with 50 in flight.
  const total = await db().card.count()
  const lastPage = Math.ceil(total / 20)
  const listRows: Row[] = []
  for (const [label, page] of [
    ['page 1', 1],
    [`last page (${lastPage})`, lastPage],
  ] as const) {
    const ours = await load(LIST_REQUESTS, CONCURRENCY, () => callRoute(listRoute.GET, { token: admin.token, query: { page, pageSize: 20 } }))
    // What listCards reads, in plain steps: the total, the page's ids from the nearer end of
    // the index, then those rows.
    const floor = await load(LIST_REQUESTS, CONCURRENCY, async () => {
      const count = Number((await pool.query(`SELECT count(*) FROM "Card"`)).rows[0].count)
      const w = nearerEnd((page - 1) * 20, 20, count)
      const ids = await pool.query(`SELECT id FROM "Card" ORDER BY id ${w.order === 'asc' ? 'ASC' : 'DESC'} LIMIT $1 OFFSET $2`, [w.take, w.skip])
      await pool.query(
        `SELECT c.id, c."cardNo", c."keyMask", c.points, c.status, c."failReason", c."usedAt", c."disabledAt", c."expiresAt", c."createdAt", u.id AS uid, u.name, h.id AS hid, h.name AS hname, b.id AS bid, b.note
         FROM "Card" c LEFT JOIN "User" u ON u.id = c."usedById" LEFT JOIN "User" h ON h.id = c."holderId" JOIN "CardBatch" b ON b.id = c."batchId"
         WHERE c.id = ANY($1::int[]) ORDER BY c.id DESC`,
        [ids.rows.map((r) => r.id)],
      )
    })
    for (const p of [50, 99]) {
      const a = percentile(ours.latencies, p)
      const b = percentile(floor.latencies, p)
      listRows.push({ what: `list ${label} p${p}`, ours: fmt(a), floor: fmt(b), ratio: ratio(a, b) })
    }
  }

  // 3. Redemption: 2,000 ready keys redeemed by 50 users, 50 in flight; the floor redeems
  // 2,000 others. Both start from the typed key, as a user does.
  const users = await Promise.all(Array.from({ length: 50 }, () => createUser()))
  const ready = await db().card.findMany({ where: { status: 'SUCCESS' }, select: { keyHash: true }, orderBy: { id: 'asc' }, take: REDEMPTIONS * 2 })
  if (ready.length < REDEMPTIONS * 2) throw new Error(`need ${REDEMPTIONS * 2} ready cards, have ${ready.length}: raise BENCH_KEYS`)
  const keyByHash = new Map(keys.map((k) => [hashKey(k), k]))
  const readyKeys = ready.map((c) => keyByHash.get(c.keyHash)!)
  const ipOf = (i: number) => `10.1.${i % 50}.1`
  const redeem = await load(REDEMPTIONS, CONCURRENCY, (i) =>
    callRoute(redeemRoute.POST, { token: at(users, i % 50).token, ip: ipOf(i), body: { cardKey: at(readyKeys, i) } }).then((r) => {
      if (r.status !== 200) throw new Error(JSON.stringify(r.body))
    }),
  )
  // Floor: the statements redeemCard runs for a successful redemption, in one transaction:
  // the throttle's advisory locks (user and address, in key order) and its counter read,
  // the lookup by key hash, the conditional claim, the guarded points update and the ledger row.
  const floorRedeem = await load(REDEMPTIONS, CONCURRENCY, async (i) => {
    const user = at(users, i % 50)
    const limitKeys = [`redeem:user:${user.id}`, `redeem:ip:${ipOf(i)}`].sort()
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      for (const key of limitKeys) await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key])
      const counters = await client.query(`SELECT key, count, "resetAt" FROM "RateLimitCounter" WHERE key = ANY($1::text[]) AND "resetAt" > now()`, [limitKeys])
      const maxOf = (key: string) => (key.startsWith('redeem:user:') ? REDEEM_LIMITS.perUser.max : REDEEM_LIMITS.perIp.max)
      if (counters.rows.some((r) => r.count >= maxOf(r.key))) throw new Error('floor throttled')
      const matches = await client.query(`SELECT id, status, "usedAt", "usedById", "holderId", "disabledAt", "expiresAt" FROM "Card" WHERE "keyHash" = $1`, [
        hashKey(at(readyKeys, REDEMPTIONS + i)),
      ])
      const card = matches.rows.find((c) => c.status === 'SUCCESS')
      const won = await client.query(
        `UPDATE "Card" SET "usedById" = $1, "usedAt" = now()
         WHERE id = $2 AND status = 'SUCCESS' AND "usedAt" IS NULL AND "disabledAt" IS NULL
           AND ("expiresAt" IS NULL OR "expiresAt" > now()) AND ("holderId" IS NULL OR "holderId" = $1)
         RETURNING id, "cardNo", "keyMask", points, "createdAt", "usedAt", "expiresAt", "disabledAt"`,
        [user.id, card.id],
      )
      const points = won.rows[0].points
      const after = await client.query(
        `UPDATE "User" SET points = points + $1, "updatedAt" = now() WHERE id = $2 AND points::bigint + $1 BETWEEN 0 AND 2147483647 RETURNING points`,
        [points, user.id],
      )
      await client.query(
        `INSERT INTO "LedgerEntry"("userId", account, kind, amount, "balanceAfter", reference, note) VALUES ($1, 'POINTS', 'CARD_REDEEM', $2, $3, $4, '卡密兑换') RETURNING id`,
        [user.id, points, after.rows[0].points, `card:${card.id}:redeem`],
      )
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK')
      throw error
    } finally {
      client.release()
    }
  })

  console.log('\napp: the route handlers called in-process with a Request (route() wrapper, zod, domain code, Prisma); no HTTP server or socket is involved.')
  console.log('floor: the same statements sent straight to PostgreSQL with pg, no framework.')
  printTable(`Card keys — ${TOTAL_KEYS.toLocaleString()} keys, PostgreSQL at ${new URL(database.url).host}`, [
    {
      what: `import ${TOTAL_KEYS.toLocaleString()} keys (${Math.ceil(TOTAL_KEYS / 10_000)} requests, committed)`,
      ours: fmt(imported.ms),
      floor: fmt(floorImport.ms),
      ratio: ratio(imported.ms, floorImport.ms),
    },
    { what: 'background check of all PENDING', ours: fmt(checked.ms), floor: '-', ratio: '-' },
    ...listRows,
    {
      what: `redeem ${REDEMPTIONS} keys, ${CONCURRENCY} in flight`,
      ours: `${((REDEMPTIONS / redeem.wallMs) * 1000).toFixed(0)} /s`,
      floor: `${((REDEMPTIONS / floorRedeem.wallMs) * 1000).toFixed(0)} /s`,
      ratio: ratio(floorRedeem.wallMs, redeem.wallMs),
    },
  ])
} finally {
  await pool.end()
  await disconnectDb()
  await database.drop()
}

/** A newest-first page read from the nearer end of the index: past the middle, oldest first from the far end. */
function nearerEnd(skip: number, take: number, total: number): { order: 'asc' | 'desc'; skip: number; take: number } {
  const size = Math.max(0, Math.min(take, total - skip))
  return skip * 2 <= total ? { order: 'desc', skip, take: size } : { order: 'asc', skip: Math.max(0, total - skip - take), take: size }
}
