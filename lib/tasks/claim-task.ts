import { db } from '@/lib/db'

/** A claimed task is this worker's until the lease runs out; heartbeats extend it. */
export const LEASE_MS = 60_000
/** Once started, a task has this long to finish (unless its model says otherwise). */
export const RUN_TIMEOUT_MS = 10 * 60_000

export type ClaimedTask = { id: string; upstreamId: string | null; attempts: number }

/**
 * Claims one task for this worker, or null. First an accepted job whose worker died
 * (stage RUNNING, no lease): it only needs someone to wait for it. Else a queued task
 * for the least busy healthy backend with a free slot (a task of a pool may go to any of
 * its instances and is moved to the one chosen): the backend's row is locked (SKIP
 * LOCKED) while its running jobs are counted, so two workers can never fill one slot
 * twice; then the user with the fewest running tasks goes first, then the oldest task.
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
    // A backend can take a queued task that names it, or one of its pool's. Pool members
    // must be enabled and healthy; a lone model still runs the tasks already paid for it.
    const models = await tx.$queryRaw<{ id: string; pool: string | null }[]>`
      WITH load AS (
        SELECT m."id", m."pool", m."concurrency",
          (SELECT count(*) FROM "Task" r WHERE r."modelId" = m."id" AND r."status" = 'PENDING' AND r."stage" IN ('SUBMITTING', 'RUNNING')) AS running,
          (SELECT min(q."createdAt") FROM "Task" q
            WHERE q."status" = 'PENDING' AND q."stage" = 'QUEUED' AND q."runAfter" <= now()
              AND ((q."poolKey" IS NULL AND q."modelId" = m."id") OR q."poolKey" = m."pool")) AS oldest
        FROM "AiModel" m
        WHERE m."healthy" AND (m."enabled" OR m."pool" IS NULL)
      )
      SELECT m."id", m."pool" FROM "AiModel" m JOIN load ON load."id" = m."id"
      WHERE load.oldest IS NOT NULL AND load.running < load."concurrency"
      ORDER BY load.running, load.oldest
      FOR UPDATE OF m SKIP LOCKED LIMIT 1`
    if (models.length === 0) return null
    const [{ id: modelId, pool }] = models
    // Only the chosen row is locked (SKIP LOCKED passes over rows other claimers hold), so
    // workers claiming for other instances of the pool are never blocked by this one.
    const rows = await tx.$queryRaw<ClaimedTask[]>`
      WITH chosen AS (
        SELECT t."id" FROM "Task" t
        WHERE t."status" = 'PENDING' AND t."stage" = 'QUEUED' AND t."runAfter" <= now()
          AND ((t."poolKey" IS NULL AND t."modelId" = ${modelId}) OR t."poolKey" = ${pool})
        ORDER BY (SELECT count(*) FROM "Task" u WHERE u."userId" = t."userId" AND u."status" = 'PENDING' AND u."stage" IN ('SUBMITTING', 'RUNNING')), t."createdAt"
        LIMIT 1 FOR UPDATE OF t SKIP LOCKED
      )
      UPDATE "Task" SET
        "modelId" = ${modelId}, "stage" = 'SUBMITTING', "leaseOwner" = ${workerId}, "leaseExpiresAt" = now() + ${`${LEASE_MS} milliseconds`}::interval,
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
