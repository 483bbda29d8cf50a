import 'server-only'
import { readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import { toAdminModelRow, type AdminModelRow, type ModelRecord } from './admin-model-views'
import type { ModelLoad } from './model-load'

const HOUR_MS = 3600_000

/**
 * Every model (MODEL_SELECT's columns) with its load (./model-load.ts says what each count
 * means), in one statement: the pending tasks grouped by model, pool key and stage, and the
 * last hour's backend attempts grouped by model, each read once and summed per model. The
 * secret is masked here, by toAdminModelRow.
 */
export async function listModels(): Promise<Listed<AdminModelRow>[]> {
  const rows = await readRows<(Listed<ModelRecord> & ModelLoad)[]>(Prisma.sql`
    WITH p AS (SELECT "modelId", "poolKey", "stage", count(*)::int AS "n" FROM "Task" WHERE "status" = 'PENDING' GROUP BY "modelId", "poolKey", "stage"),
    a AS (SELECT "modelId", count(*)::int AS "n", (count(*) FILTER (WHERE NOT "ok"))::int AS "failed" FROM "BackendAttempt" WHERE "createdAt" >= ${new Date(Date.now() - HOUR_MS)} GROUP BY "modelId")
    SELECT m."id", m."name", m."type", m."backend", m."endpoint", m."secretEnc", m."checkpoint", m."prices", m."options", m."concurrency", m."pool",
      m."enabled", m."sort", m."healthy", m."healthCheckedAt", m."healthMessage", m."createdAt", m."updatedAt",
      (SELECT coalesce(sum(p."n"), 0)::int FROM p WHERE p."stage" = 'QUEUED' AND p."poolKey" IS NULL AND p."modelId" = m."id") AS "queued",
      CASE WHEN m."pool" IS NOT NULL THEN (SELECT coalesce(sum(p."n"), 0)::int FROM p WHERE p."stage" = 'QUEUED' AND p."poolKey" = m."pool") END AS "poolQueued",
      (SELECT coalesce(sum(p."n"), 0)::int FROM p WHERE p."stage" <> 'QUEUED' AND p."modelId" = m."id") AS "running",
      coalesce(a."n", 0) AS "recentAttempts",
      coalesce(a."failed", 0) AS "recentFailures"
    FROM "AiModel" m
    LEFT JOIN a ON a."modelId" = m."id"
    ORDER BY m."sort" ASC, m."createdAt" ASC`)
  return rows.map(({ queued, poolQueued, running, recentAttempts, recentFailures, ...model }) =>
    toAdminModelRow(model, { queued, poolQueued, running, recentAttempts, recentFailures }),
  )
}
