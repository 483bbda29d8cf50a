// The benchmarks' data: 100,000 rows (or BENCH_ROWS) of each list the console and the wall
// show, on a site started by bench/site.ts (its admin and demo model already made). Shared by
// bench/http.ts and bench/http-ab.ts.
import type pg from 'pg'

/**
 * 100,000 cards (one batch, 10% failed), works on the wall (95% through moderation, 5% reported
 * 0-1 times) with their tasks, 100,000 users (the first 2,000 with points) and as many orders,
 * each paid one with its charge record; then VACUUM ANALYZE. Returns the admin's id.
 */
export async function seedLists(pool: pg.Pool, rows: number): Promise<{ admin: string }> {
  const [model] = (await pool.query(`SELECT id FROM "AiModel" WHERE backend = 'demo' AND type = 'STABLE_DIFFUSION' LIMIT 1`)).rows
  const [admin] = (await pool.query(`SELECT id FROM "User" WHERE username = 'admin'`)).rows
  // 2,000 users with points (each submit of the POST run goes to the next one, so no one
  // reaches the pending-task limit), 200 of whom own the works.
  await pool.query(
    `INSERT INTO "User" (id, username, name, points, "updatedAt") SELECT 'bench-u' || g, 'bench_u' || g, '画手' || g, 100000, now() FROM generate_series(1, 2000) g`,
  )
  await pool.query(
    `INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "priceSnapshot", "chargedPoints", "deadlineAt", "updatedAt", "createdAt")
     SELECT 'bench-t' || g, 'bench-u' || (g % 200 + 1), 'SD_TEXT2IMG', 'SUCCESS', 'DONE', jsonb_build_object('prompt', '山间云海 ' || g, 'count', 1), $2, '{}', 1, now(), now(),
            timestamp '2026-01-01' + g * interval '1 second'
     FROM generate_series(1, $1) g`,
    [rows, model.id],
  )
  await pool.query(
    `INSERT INTO "WallWork" (id, "taskId", "userId", status, "modelType", "modelName", "imageUrl", "thumbUrl", width, height, prompt, likes, reports, "listedAt", "updatedAt", "createdAt")
     SELECT 'bench-w' || lpad(g::text, 7, '0'), 'bench-t' || g, 'bench-u' || (g % 200 + 1),
            (CASE WHEN g % 20 = 0 THEN 'PENDING' WHEN g % 20 = 1 THEN 'HIDDEN' ELSE 'APPROVED' END)::"WallStatus",
            'STABLE_DIFFUSION', 'demo', '/files/results/b/' || g || '.png', '/files/results/b/' || g || '.thumb.webp', 512, 512, '山间云海 ' || g,
            floor(power(random(), 6) * 500)::int, (g % 97 = 0)::int,
            CASE WHEN g % 20 > 1 THEN timestamp '2026-01-01' + (g / 50) * interval '1 second' END, now(), timestamp '2026-01-01' + g * interval '1 second'
     FROM generate_series(1, $1) g`,
    [rows],
  )
  const batch = (await pool.query(`INSERT INTO "CardBatch"(points, count, "createdById") VALUES (10, $1, $2) RETURNING id`, [rows, admin.id])).rows[0].id
  await pool.query(
    `INSERT INTO "Card"("keyHash", "cardKeyEnc", "keyMask", points, "batchId", status)
     SELECT md5(g::text), 'sealed', 'ABC******XYZ', 10, $2, (CASE WHEN g % 10 = 0 THEN 'FAIL' ELSE 'SUCCESS' END)::"Status" FROM generate_series(1, $1) g`,
    [rows, batch],
  )
  // The other console lists: 100,000 users in all (a few managers and admins), and as many
  // orders, each paid one with its charge record, spread over the channels and types.
  await pool.query(
    `INSERT INTO "User" (id, username, name, mobile, role, "updatedAt", "createdAt")
     SELECT 'bench-x' || g, 'bench_x' || g, '用户' || g, '139' || lpad(g::text, 8, '0'),
            (CASE WHEN g % 1000 = 0 THEN 'MANAGER' ELSE 'USER' END)::"Role", now(), timestamp '2025-01-01' + g * interval '1 minute'
     FROM generate_series(2001, $1) g`,
    [rows],
  )
  await pool.query(
    `INSERT INTO "Order" (id, "outTradeNo", "userId", type, "grant", subject, amount, channel, status, "paidAt", "expiresAt", "updatedAt", "createdAt")
     SELECT 'bench-o' || g, 'BENCH' || lpad(g::text, 10, '0'), 'bench-u' || (g % 2000 + 1),
            (CASE WHEN g % 3 = 0 THEN 'BALANCE' WHEN g % 5 = 0 THEN 'MEMBERSHIP' ELSE 'POINTS' END)::"OrderType", '{"points": 100}', '积分 100', 1000,
            (CASE WHEN g % 2 = 0 THEN 'WECHAT' ELSE 'ALIPAY' END)::"PayChannel",
            (CASE WHEN g % 10 = 0 THEN 'PENDING' WHEN g % 10 = 1 THEN 'CANCELED' ELSE 'SUCCESS' END)::"Status",
            now(), now(), now(), timestamp '2026-01-01' + g * interval '1 minute'
     FROM generate_series(1, $1) g`,
    [rows],
  )
  await pool.query(
    `INSERT INTO "ChargeRecord" ("userId", "orderId", type, channel, amount, points, status, "updatedAt", "createdAt")
     SELECT "userId", id, type, channel, amount, 100, (CASE WHEN status = 'SUCCESS' THEN 'SUCCESS' ELSE 'FAIL' END)::"Status", now(), "createdAt"
     FROM "Order" WHERE id LIKE 'bench-o%' ORDER BY "createdAt"`,
  )
  // A deployment's autovacuum would have visited the new rows by now (this machine's is off):
  // without it every index-only count still reads the table's pages.
  await pool.query('VACUUM ANALYZE')
  // And the seed's dirty pages written out now, not by the checkpointer during the first
  // routes' rounds (where the ceiling ran 20-30% slower than in the later ones).
  await pool.query('CHECKPOINT')
  return { admin: admin.id as string }
}
