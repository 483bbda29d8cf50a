// What the signed-in readers of bench/http.ts (bench-u1 … bench-u100, seeded by
// seed-lists.ts) have on their own pages besides tasks and orders: a ledger, cards held
// and redeemed, chats, invitees with commission, bought videos and Midjourney work.
import type pg from 'pg'

export const READERS = 100

/** Per reader: the ids its one-item reads ask for (undefined where it has none). */
export type ReaderIds = { task: string; order?: string; conversation: string }

/**
 * For each of the first 100 users: 60 ledger rows, 5 cards held and 5 redeemed, 20 chats
 * (the first with 40 messages, from three days ago, so the console's chat usage of 7 days has
 * 2,000 answers to count), 5 invitees whose paid orders earned it commission, 3 bought
 * videos, and (bench-u2 … bench-u100, so bench-u1 keeps its 500 tasks) 10 Midjourney
 * imagines with an upscale each. Then VACUUM ANALYZE and a CHECKPOINT, as seedLists does.
 */
export async function seedReaderRows(pool: pg.Pool): Promise<ReaderIds[]> {
  const [model] = (await pool.query(`SELECT id FROM "AiModel" WHERE backend = 'demo' AND type = 'STABLE_DIFFUSION' LIMIT 1`)).rows
  await pool.query(
    `INSERT INTO "LedgerEntry" ("userId", account, kind, amount, "balanceAfter", reference, note, "createdAt")
     SELECT 'bench-u' || u, 'POINTS', 'TASK_CHARGE', -10, 100000 - 10 * s, 'bench:' || u || ':' || s, '文生图', timestamp '2026-01-01' + s * interval '1 hour'
     FROM generate_series(1, $1) u, generate_series(1, 60) s`,
    [READERS],
  )
  // Cards of the seeded batch: the first 500 ready ones handed to readers, the next 500 redeemed by them.
  await pool.query(
    `UPDATE "Card" c SET "holderId" = 'bench-u' || ((c.id - 1) % $1 + 1) FROM (SELECT id FROM "Card" WHERE status = 'SUCCESS' ORDER BY id LIMIT 500) h WHERE c.id = h.id`,
    [READERS],
  )
  await pool.query(
    `UPDATE "Card" c SET "usedById" = 'bench-u' || ((c.id - 1) % $1 + 1), "usedAt" = now()
     FROM (SELECT id FROM "Card" WHERE status = 'SUCCESS' AND "holderId" IS NULL ORDER BY id LIMIT 500) r WHERE c.id = r.id`,
    [READERS],
  )
  const [chatModel] = (
    await pool.query(
      `INSERT INTO "ChatModel" (id, name, endpoint, model, "pricePerMessage", "updatedAt") VALUES ('bench-chat', 'DeepSeek', 'http://127.0.0.1:9/v1', 'deepseek-chat', 1, now()) RETURNING id`,
    )
  ).rows
  await pool.query(
    `INSERT INTO "ChatConversation" (id, "userId", "modelId", title, "createdAt", "updatedAt")
     SELECT 'bench-c' || u || '-' || c, 'bench-u' || u, $2, '关于构图的问题 ' || c, timestamp '2026-01-01' + c * interval '1 day', timestamp '2026-01-01' + c * interval '1 day'
     FROM generate_series(1, $1) u, generate_series(1, 20) c`,
    [READERS, chatModel.id],
  )
  await pool.query(
    `INSERT INTO "ChatMessage" (id, "conversationId", "userId", "modelId", role, content, "paidBy", points, "createdAt")
     SELECT 'bench-m' || u || '-' || m, 'bench-c' || u || '-1', 'bench-u' || u, $2,
            (CASE WHEN m % 2 = 1 THEN 'USER' ELSE 'ASSISTANT' END)::"ChatRole",
            CASE WHEN m % 2 = 1 THEN '怎样让画面里的光线更柔和？' ELSE repeat('可以降低对比度，加入漫射光源，并在提示词里写上“柔光”“逆光”。', 6) END,
            (CASE WHEN m % 2 = 1 THEN 'NONE' ELSE 'POINTS' END)::"ChatPayment", (m % 2 = 0)::int, now() - interval '3 days' + m * interval '1 minute'
     FROM generate_series(1, $1) u, generate_series(1, 40) m`,
    [READERS, chatModel.id],
  )
  // bench-u101 … bench-u600 were invited by the readers (5 each); each of their paid orders earned 10%.
  await pool.query(
    `UPDATE "User" SET "inviterId" = 'bench-u' || ((substr(id, 8)::int - 1) % $1 + 1), "invitedAt" = timestamp '2025-12-01'
     WHERE id LIKE 'bench-u%' AND substr(id, 8)::int BETWEEN 101 AND 600`,
    [READERS],
  )
  await pool.query(
    `INSERT INTO "CommissionRecord" ("orderId", "inviterId", "inviteeId", "orderType", "orderAmount", rate, account, amount, "createdAt", "updatedAt")
     SELECT o.id, u."inviterId", o."userId", o.type, o.amount, 10, 'POINTS', o.amount / 10, o."paidAt", now()
     FROM "Order" o JOIN "User" u ON u.id = o."userId" WHERE u."inviterId" IS NOT NULL AND o.status = 'SUCCESS'`,
  )
  await pool.query(
    `INSERT INTO "Video" (id, title, tags, kind, price, "durationSec", width, height, size, "fileKey", "posterKey", "previewKey", published, "updatedAt")
     SELECT 'bench-v' || v, '城市延时 ' || v, ARRAY['城市', '延时'], 'PAID', 990, 12.5, 1920, 1080, 52428800,
            'private/videos/bench-' || v || '.mp4', 'videos/bench-' || v || '.jpg', 'videos/bench-' || v || '.preview.mp4', true, now()
     FROM generate_series(1, 3) v`,
  )
  await pool.query(
    `INSERT INTO "VideoPurchase" (id, "userId", "videoId", "orderId", price, "createdAt")
     SELECT 'bench-vp' || u || '-' || v, 'bench-u' || u, 'bench-v' || v, 'bench-o' || (2000 * v + u - 1), 990, timestamp '2026-02-01' + v * interval '1 day'
     FROM generate_series(1, $1) u, generate_series(1, 3) v`,
    [READERS],
  )
  await pool.query(
    `INSERT INTO "Task" (id, "userId", type, status, stage, params, "modelId", "parentId", action, buttons, results, "priceSnapshot", "chargedPoints", "deadlineAt", "updatedAt", "createdAt")
     SELECT 'bench-mj' || u || '-' || i || (CASE WHEN up THEN 'u' ELSE '' END), 'bench-u' || u,
            'MJ_TEXT2IMG', 'SUCCESS', 'DONE', jsonb_build_object('prompt', '赛博朋克城市夜景 ' || i), $2,
            CASE WHEN up THEN 'bench-mj' || u || '-' || i END, CASE WHEN up THEN 'MJ::JOB::upsample::1::bench' ELSE 'IMAGINE' END,
            CASE WHEN up THEN '[]' ELSE '[{"customId":"MJ::JOB::upsample::1::bench","label":"U1","emoji":""}]' END::jsonb,
            jsonb_build_array(jsonb_build_object('url', '/files/results/mj/' || u || '-' || i || '.png', 'width', 1024, 'height', 1024)),
            '{}', 5, now(), now(), timestamp '2026-03-01' + i * interval '1 hour' + (CASE WHEN up THEN interval '1 minute' ELSE interval '0' END)
     FROM generate_series(2, $1 + 1) u, generate_series(1, 10) i, unnest(ARRAY[false, true]) up`,
    [READERS, model.id],
  )
  await pool.query('VACUUM ANALYZE')
  await pool.query('CHECKPOINT')
  const orders = new Map(
    (
      await pool.query<{ userId: string; id: string }>(
        `SELECT DISTINCT ON ("userId") "userId", id FROM "Order" WHERE "userId" = ANY($1) AND status <> 'PENDING' ORDER BY "userId", "createdAt" DESC`,
        [Array.from({ length: READERS }, (_, i) => `bench-u${i + 1}`)],
      )
    ).rows.map((r) => [r.userId, r.id]),
  )
  // bench-t<g> belongs to bench-u<g % 200 + 1> (seed-lists.ts).
  return Array.from({ length: READERS }, (_, i) => ({ task: `bench-t${200 + i}`, order: orders.get(`bench-u${i + 1}`), conversation: `bench-c${i + 1}-1` }))
}
