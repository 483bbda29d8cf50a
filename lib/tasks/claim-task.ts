import { db } from '@/lib/db'

/** A claimed task is this worker's until the lease runs out; heartbeats extend it. */
export const LEASE_MS = 60_000
/** Once started, a task has this long to finish (unless its model says otherwise). */
export const RUN_TIMEOUT_MS = 10 * 60_000

export type ClaimedTask = { id: string; upstreamId: string | null; attempts: number }

/**
 * Claims one task for this worker, or null. First an accepted job whose worker died
 * (stage RUNNING, no lease): it only needs someone to wait for it. Else a queued task
 * on a backend with a free slot: the backend's row is locked (SKIP LOCKED) while its
 * running jobs are counted, so two workers can never fill one slot twice; within a
 * backend, the user with the fewest running tasks goes first, then the oldest task.
 */
export async function claimTask(workerId: string): Promise<ClaimedTask | null> {
  return (await claimOrphan(workerId)) ?? (await claimQueued(workerId))
}

async function claimOrphan(workerId: string): Promise<ClaimedTask | null> {
  const rows = await db().$queryRaw<ClaimedTask[]>`
    UPDATE "Task" SET "leaseOwner" = ${workerId}, "leaseExpiresAt" = now() + ${`${LEASE_MS} milliseconds`}::interval
    WHERE "id" = (
      SELECT "id" FROM "Task" WHERE "status" = 'PENDING' AND "stage" = 'RUNNING' AND "leaseOwner" IS NULL
      ORDER BY "createdAt" FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING "id", "upstreamId", "attempts"`
  return rows[0] ?? null
}

async function claimQueued(workerId: string): Promise<ClaimedTask | null> {
  return db().$transaction(async (tx) => {
    const models = await tx.$queryRaw<{ id: string }[]>`
      SELECT m."id" FROM "AiModel" m
      WHERE EXISTS (SELECT 1 FROM "Task" q WHERE q."modelId" = m."id" AND q."status" = 'PENDING' AND q."stage" = 'QUEUED' AND q."runAfter" <= now())
        AND (SELECT count(*) FROM "Task" r WHERE r."modelId" = m."id" AND r."status" = 'PENDING' AND r."stage" IN ('SUBMITTING', 'RUNNING')) < m."concurrency"
      ORDER BY (SELECT min(q."createdAt") FROM "Task" q WHERE q."modelId" = m."id" AND q."status" = 'PENDING' AND q."stage" = 'QUEUED')
      FOR UPDATE SKIP LOCKED LIMIT 1`
    if (models.length === 0) return null
    const rows = await tx.$queryRaw<ClaimedTask[]>`
      WITH candidates AS (
        SELECT t."id", t."userId", t."createdAt" FROM "Task" t
        WHERE t."modelId" = ${models[0].id} AND t."status" = 'PENDING' AND t."stage" = 'QUEUED' AND t."runAfter" <= now()
        ORDER BY t."createdAt" LIMIT 50 FOR UPDATE SKIP LOCKED
      ), chosen AS (
        SELECT c."id" FROM candidates c
        ORDER BY (SELECT count(*) FROM "Task" u WHERE u."userId" = c."userId" AND u."status" = 'PENDING' AND u."stage" IN ('SUBMITTING', 'RUNNING')), c."createdAt"
        LIMIT 1
      )
      UPDATE "Task" SET
        "stage" = 'SUBMITTING', "leaseOwner" = ${workerId}, "leaseExpiresAt" = now() + ${`${LEASE_MS} milliseconds`}::interval,
        "attempts" = "attempts" + 1, "startedAt" = COALESCE("startedAt", now()),
        "deadlineAt" = LEAST("deadlineAt", now() + ${`${RUN_TIMEOUT_MS} milliseconds`}::interval)
      FROM chosen WHERE "Task"."id" = chosen."id"
      RETURNING "Task"."id", "Task"."upstreamId", "Task"."attempts"`
    return rows[0] ?? null
  })
}

/** When the next queued task becomes due (backoff), to sleep until then. */
export async function nextDueAt(): Promise<Date | null> {
  const row = await db().task.findFirst({ where: { status: 'PENDING', stage: 'QUEUED' }, orderBy: { runAfter: 'asc' }, select: { runAfter: true } })
  return row?.runAfter ?? null
}
