// Card-key benchmark (issue: card keys): import 100,000 keys, list page 1 and the last
// page under 50 concurrent requests, and redemption throughput. Every figure is put
// beside the same work done straight against PostgreSQL with pg (no framework) as the
// floor. Prints figures; asserts nothing.   Run: npm run bench:cards
import pg from 'pg'
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
const { db, disconnectDb } = await import('../lib/db')
const { nearerEndWindow } = await import('../lib/http/pagination')
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
  // Floor: the same rows (hash, sealed key, mask computed the same way) in one INSERT ... unnest.
  const floorImport = await timed(async () => {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      const batch = await client.query(`INSERT INTO "CardBatch"(points, count) VALUES (10, $1) RETURNING id`, [keys.length])
      for (let i = 0; i < keys.length; i += 10_000) {
        const part = keys.slice(i, i + 10_000)
        await client.query(
          `INSERT INTO "Card"("keyHash","cardKeyEnc","keyMask",points,"batchId","status") SELECT h, e, m, 10, $4, 'FAIL' FROM unnest($1::text[], $2::text[], $3::text[]) AS t(h, e, m)`,
          [part.map((k) => hashKey(k)), part.map((k) => sealKey(k)), part.map((k) => maskKey(k)), batch.rows[0].id],
        )
      }
      await client.query('ROLLBACK')
    } finally {
      client.release()
    }
  })

  // 2. Listing: page 1 and the last page, 500 requests with 50 in flight.
  const total = await db().card.count()
  const lastPage = Math.ceil(total / 20)
  const listRows: Row[] = []
  for (const [label, page] of [['page 1', 1], [`last page (${lastPage})`, lastPage]] as const) {
    const ours = await load(LIST_REQUESTS, CONCURRENCY, () => callRoute(listRoute.GET, { token: admin.token, query: { page, pageSize: 20 } }))
    // The same steps listCards takes: the total, the page's ids from the nearer end of
    // the index, then those rows.
    const floor = await load(LIST_REQUESTS, CONCURRENCY, async () => {
      const count = Number((await pool.query(`SELECT count(*) FROM "Card"`)).rows[0].count)
      const w = nearerEndWindow({ skip: (page - 1) * 20, take: 20 }, count)!
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

  // 3. Redemption: 2,000 ready keys redeemed by 50 users, 50 in flight.
  const users = await Promise.all(Array.from({ length: 50 }, () => createUser()))
  const ready = await db().card.findMany({ where: { status: 'SUCCESS' }, select: { id: true }, orderBy: { id: 'asc' }, take: REDEMPTIONS * 2 })
  const ids = ready.map((c) => c.id)
  const idToKey = new Map<number, string>()
  const firstId = ids[0]
  ids.forEach((id) => idToKey.set(id, keys[id - firstId]))
  const redeem = await load(REDEMPTIONS, CONCURRENCY, (i) =>
    callRoute(redeemRoute.POST, { token: users[i % 50].token, ip: `10.1.${i % 50}.1`, body: { cardKey: idToKey.get(ids[i])! } }).then((r) => {
      if (r.status !== 200) throw new Error(JSON.stringify(r.body))
    }),
  )
  const floorRedeem = await load(REDEMPTIONS, CONCURRENCY, async (i) => {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      const id = ids[REDEMPTIONS + i]
      const won = await client.query(`UPDATE "Card" SET "usedById" = $1, "usedAt" = now() WHERE id = $2 AND status = 'SUCCESS' AND "usedAt" IS NULL RETURNING points`, [users[i % 50].id, id])
      const after = await client.query(`UPDATE "User" SET points = points + $1 WHERE id = $2 RETURNING points`, [won.rows[0].points, users[i % 50].id])
      await client.query(`INSERT INTO "LedgerEntry"("userId", account, kind, amount, "balanceAfter", reference) VALUES ($1, 'POINTS', 'CARD_REDEEM', $2, $3, $4)`, [users[i % 50].id, won.rows[0].points, after.rows[0].points, `floor:${id}`])
      await client.query('COMMIT')
    } finally {
      client.release()
    }
  })

  printTable(`Card keys — ${TOTAL_KEYS.toLocaleString()} keys, PostgreSQL at ${new URL(database.url).host}`, [
    { what: `import ${TOTAL_KEYS.toLocaleString()} keys (10 requests)`, ours: fmt(imported.ms), floor: fmt(floorImport.ms), ratio: ratio(imported.ms, floorImport.ms) },
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
