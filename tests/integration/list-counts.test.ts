// The console's 总计 N 条 for cards and wall works comes from counters that triggers keep
// in the same transaction as each write (migration list_counts). Under concurrent imports,
// background checks, redemptions, deletions, rollbacks, moderation and likes, the counters
// must equal count(*) in every snapshot, and every filter's total must be exact afterwards.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import * as cardsRoute from '@/app/api/admin/cards/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import * as adminWallRoute from '@/app/api/admin/wall/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { freshKeys, importKeys, settleCards } from '../helpers/cards-fixtures'
import { at } from '../helpers/present'

let pool: pg.Pool
beforeAll(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 12 })
})
afterAll(async () => {
  await pool.end()
})

/** Runs `work` while checking, over and over, that one snapshot's rows and counters agree; returns the checks made and the disagreements. */
async function watched(rowsSql: string, keptSql: string, work: () => Promise<unknown>): Promise<{ checks: number; wrong: string[] }> {
  let done = false
  const wrong: string[] = []
  let checks = 0
  const watcher = (async () => {
    while (!done) {
      // One statement sees one snapshot, so the two numbers are of the same moment.
      const { rows } = await pool.query(`SELECT (${rowsSql})::int AS rows, (${keptSql})::int AS kept`)
      checks++
      if (rows[0].rows !== rows[0].kept) wrong.push(`${rows[0].rows} rows, counter says ${rows[0].kept}`)
    }
  })()
  try {
    await work()
  } finally {
    done = true
    await watcher
  }
  return { checks, wrong }
}

describe('card counts', () => {
  it('stay exact under concurrent imports, checks, redemptions, deletions and rollbacks', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser()))
    const first = freshKeys(200, 'CNT')
    const { batchId: firstBatch } = await importKeys(admin, first, { points: 5 })
    await settleCards()
    const ready = [...first]

    const result = await watched(`SELECT count(*) FROM "Card"`, `SELECT coalesce(sum(n), 0) FROM "CardCount"`, () =>
      Promise.all([
        // Imports, some keys repeated so the background check fails them.
        ...Array.from({ length: 6 }, (_, i) => importKeys(admin, [...freshKeys(150, `IMP${i}`), ...first.slice(i * 10, i * 10 + 10)], { points: 5 })),
        // The background check, all the while.
        (async () => {
          for (let i = 0; i < 20; i++) await settleCards()
        })(),
        // Redemptions of the ready cards (status stays; usedAt changes).
        ...users.map((u, i) =>
          (async () => {
            for (let k = 0; k < 5; k++) {
              const res = await callRoute(redeemRoute.POST, { token: u.token, ip: `10.2.${i}.${k}`, body: { cardKey: at(ready, i * 5 + k) } })
              expect(res.status).toBe(200)
            }
          })(),
        ),
        // Deletions of cards of the later batches, and imports rolled back.
        (async () => {
          for (let i = 0; i < 10; i++)
            await pool.query(`DELETE FROM "Card" WHERE id IN (SELECT id FROM "Card" WHERE "batchId" <> $1 ORDER BY random() LIMIT 3)`, [firstBatch])
        })(),
        (async () => {
          const client = await pool.connect()
          try {
            for (let i = 0; i < 5; i++) {
              await client.query('BEGIN')
              await client.query(
                `INSERT INTO "Card"("keyHash", "cardKeyEnc", "keyMask", points, "batchId") SELECT md5(random()::text), 'x', 'x', 1, min(id) FROM "CardBatch"`,
              )
              await client.query(`UPDATE "Card" SET status = 'CANCELED' WHERE id IN (SELECT id FROM "Card" ORDER BY id DESC LIMIT 5)`)
              await client.query('ROLLBACK')
            }
          } finally {
            client.release()
          }
        })(),
      ]),
    )
    await settleCards()
    console.log(`[figure] card counters checked against count(*) during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`)
    expect(result.wrong).toEqual([])
    expect(result.checks).toBeGreaterThan(0)

    // Every filter the list has (but the keyword search, which counts its matches) gives count(*).
    const batches = (await db().cardBatch.findMany({ select: { id: true } })).map((b) => b.id)
    const filters: Array<Record<string, string | number>> = [{}]
    for (const status of ['SUCCESS', 'FAIL', 'PENDING']) filters.push({ status })
    for (const batchId of batches) filters.push({ batchId }, { batchId, status: 'SUCCESS' }, { batchId, status: 'FAIL' })
    for (const filter of filters) {
      const listed = await callRoute(cardsRoute.GET, { token: admin.token, query: { ...filter, page: 1, pageSize: 20 } })
      const where = { ...(filter.status ? { status: filter.status as 'SUCCESS' } : {}), ...(filter.batchId ? { batchId: Number(filter.batchId) } : {}) }
      expect(listed.body.data.total, JSON.stringify(filter)).toBe(await db().card.count({ where }))
    }
    expect((await callRoute(cardsRoute.GET, { token: admin.token, query: { status: 'FAIL' } })).body.data.total).toBeGreaterThan(0)
  })
})

describe('wall counts', () => {
  it('stay exact under concurrent publishing, moderation, recommending, reports, likes and deletions', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const author = await createUser()
    await pool.query(`INSERT INTO "AiModel" (id, name, backend, "updatedAt") VALUES ('count-model', 'demo', 'demo', now()) ON CONFLICT DO NOTHING`)
    const publish = (from: number, n: number) =>
      pool.query(
        `WITH t AS (
           INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "priceSnapshot", "chargedPoints", "deadlineAt", "updatedAt")
           SELECT 'count-t' || g, $1, 'SD_TEXT2IMG', 'SUCCESS', 'DONE', '{}', 'count-model', '{}', 1, now(), now() FROM generate_series($2::int, $3::int) g RETURNING id)
         INSERT INTO "WallWork" (id, "taskId", "userId", "modelType", "modelName", "imageUrl", "thumbUrl", width, height, prompt, "updatedAt")
         SELECT 'count-w' || substr(id, 8), id, $1, 'STABLE_DIFFUSION', 'demo', '/a.png', '/a.webp', 1, 1, 'p', now() FROM t`,
        [author.id, from, from + n - 1],
      )
    await publish(1, 300)
    const random = (sql: string) => pool.query(sql.replace('$pick', `SELECT id FROM "WallWork" ORDER BY random() LIMIT 5`))

    const result = await watched(`SELECT count(*) FROM "WallWork"`, `SELECT coalesce(sum(n), 0) FROM "WallWorkCount"`, () =>
      Promise.all([
        ...Array.from({ length: 5 }, (_, i) => publish(1000 + i * 100, 50)),
        ...Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 15; i++) {
            await random(`UPDATE "WallWork" SET status = 'APPROVED', "listedAt" = now() WHERE id IN ($pick)`)
            await random(`UPDATE "WallWork" SET status = 'HIDDEN', featured = false WHERE id IN ($pick)`)
            await random(`UPDATE "WallWork" SET featured = NOT featured WHERE id IN ($pick)`)
            await random(`UPDATE "WallWork" SET reports = reports + 1 WHERE id IN ($pick)`)
            await random(`UPDATE "WallWork" SET likes = likes + 1 WHERE id IN ($pick)`)
          }
        }),
        (async () => {
          // A deleted task takes its work with it (ON DELETE CASCADE).
          for (let i = 0; i < 10; i++) await pool.query(`DELETE FROM "Task" WHERE id IN (SELECT "taskId" FROM "WallWork" ORDER BY random() LIMIT 4)`)
        })(),
      ]),
    )
    console.log(`[figure] wall counters checked against count(*) during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`)
    expect(result.wrong).toEqual([])

    const filters: Array<Record<string, string>> = [{}, { featured: '1' }, { reported: '1' }]
    for (const status of ['PENDING', 'APPROVED', 'HIDDEN']) filters.push({ status }, { status, featured: '1' }, { status, reported: '1' })
    for (const filter of filters) {
      const listed = await callRoute(adminWallRoute.GET, { token: admin.token, query: { ...filter, page: 1, pageSize: 20 } })
      const where = {
        ...(filter.status ? { status: filter.status as 'APPROVED' } : {}),
        ...(filter.featured ? { featured: true } : {}),
        ...(filter.reported ? { reports: { gt: 0 } } : {}),
      }
      expect(listed.body.data.total, JSON.stringify(filter)).toBe(await db().wallWork.count({ where }))
    }
  })
})
