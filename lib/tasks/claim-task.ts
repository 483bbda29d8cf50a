import 'server-only'
import { db } from '@/lib/db'
import { env } from '@/lib/env'

/** A claimed task is this worker's until the lease runs out (WORKER_LEASE_SECONDS); heartbeats extend it. */
export function leaseMs(): number {
  return env().WORKER_LEASE_SECONDS * 1000
}
/**
 * Once started, a picture task has this long to finish. A clip keeps the deadline its model set
 * at submit (deadlineMinutes, up to 180): providers render for longer, and a clip stopped by our
 * deadline runs on, and is billed, at the provider.
 */
export const RUN_TIMEOUT_MS = 10 * 60_000
/** Backends looked at per claim, least busy first. */
const CANDIDATES = 8

export type ClaimedTask = {
  id: string
  upstreamId: string | null
  attempts: number
  /** The last attempt ended without knowing whether the backend got the job: ask it before submitting. */
  probeBeforeSubmit: boolean
}

/**
 * What a claim found: a task; or none, whether that was only because other claimers held
 * the rows it wanted (then trying again soon may find work), and when the next task in
 * backoff becomes due. Otherwise nothing can run until a signal says the queue changed.
 */
export type ClaimOutcome = { task: ClaimedTask; contended: false } | { task: null; contended: boolean; nextDueAt: Date | null }

/**
 * Claims one task for this worker. First an accepted job whose worker died (stage
 * RUNNING, no lease): it only needs someone to wait for it. Else a queued task for the
 * least busy healthy backend with a free slot (a task of a pool may go to any of its
 * instances and is moved to the one chosen); within a backend the user with the fewest
 * running tasks goes first, then the oldest task.
 */
export async function claimNext(workerId: string): Promise<ClaimOutcome> {
  const look = await lookAtQueue()
  const orphan = look.hasOrphan ? await claimOrphan(workerId) : null
  if (orphan) return { task: orphan, contended: false }
  const outcome = await claimQueued(look.candidates, workerId)
  return outcome === 'contended'
    ? { task: null, contended: true, nextDueAt: look.nextDueAt }
    : outcome
      ? { task: outcome, contended: false }
      : { task: null, contended: false, nextDueAt: look.nextDueAt }
}

/** claimNext for callers that only want the task (tests, tools). */
export async function claimTask(workerId: string): Promise<ClaimedTask | null> {
  return (await claimNext(workerId)).task
}

async function claimOrphan(workerId: string): Promise<ClaimedTask | null> {
  const rows = await db().$queryRaw<ClaimedTask[]>`
    UPDATE "Task" SET "leaseOwner" = ${workerId}, "leaseExpiresAt" = now() + ${`${leaseMs()} milliseconds`}::interval
    WHERE "id" = (
      SELECT "id" FROM "Task" WHERE "status" = 'PENDING' AND "stage" = 'RUNNING' AND "leaseOwner" IS NULL
      ORDER BY "createdAt" FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING "id", "upstreamId", "attempts", "probeBeforeSubmit"`
  return rows[0] ?? null
}

/** A backend (AiModel row) that may take a task, and its pool. */
export type Candidate = { id: string; pool: string | null }

type Look = { candidates: Candidate[]; hasOrphan: boolean; nextDueAt: Date | null }

/**
 * One statement, no locks: backends that look able to take a task now (least busy
 * first; the counts are this statement's snapshot, so each backend is checked again
 * under its lock), whether an orphaned accepted job waits, and when the next backoff
 * ends. A pool member must be enabled and healthy; a lone model still runs the tasks
 * already paid for it.
 */
async function lookAtQueue(): Promise<Look> {
  const [look] = await db().$queryRaw<{ candidates: Candidate[]; hasOrphan: boolean; nextDueAt: Date | null }[]>`
    WITH load AS (
      SELECT m."id", m."pool", m."concurrency",
        (SELECT count(*) FROM "Task" r WHERE r."modelId" = m."id" AND r."status" = 'PENDING' AND r."stage" IN ('SUBMITTING', 'RUNNING')) AS running,
        (SELECT min(q."createdAt") FROM "Task" q
          WHERE q."status" = 'PENDING' AND q."stage" = 'QUEUED' AND q."runAfter" <= now()
            AND ((q."poolKey" IS NULL AND q."modelId" = m."id") OR q."poolKey" = m."pool")) AS oldest
      FROM "AiModel" m
      WHERE m."healthy" AND (m."enabled" OR m."pool" IS NULL)
    ), picked AS (
      SELECT "id", "pool", running, oldest FROM load
      WHERE oldest IS NOT NULL AND running < "concurrency"
      ORDER BY running, oldest
      LIMIT ${CANDIDATES}
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object('id', "id", 'pool', "pool") ORDER BY running, oldest), '[]'::json) FROM picked) AS "candidates",
      EXISTS (SELECT 1 FROM "Task" o WHERE o."status" = 'PENDING' AND o."stage" = 'RUNNING' AND o."leaseOwner" IS NULL) AS "hasOrphan",
      (SELECT min(d."runAfter") FROM "Task" d WHERE d."status" = 'PENDING' AND d."stage" = 'QUEUED' AND d."runAfter" > now()) AS "nextDueAt"`
  // A statement of aggregates always answers one row.
  return look!
}

async function claimQueued(candidates: Candidate[], workerId: string): Promise<ClaimedTask | 'contended' | null> {
  let firstLocked: Candidate | null = null
  for (const candidate of candidates) {
    const claimed = await claimOnBackend(candidate, workerId)
    if (claimed === 'locked') firstLocked ??= candidate
    else if (claimed) return claimed
  }
  if (!firstLocked) return null
  // Every backend with work was being claimed for by someone else (typically one busy
  // backend and several workers): wait our turn on the first instead of polling.
  const waited = await claimOnBackend(firstLocked, workerId, { wait: true })
  return waited === 'locked' ? 'contended' : waited
}

/** How long a claim waits for a backend's row that another claimer holds (they hold it for milliseconds). */
const LOCK_WAIT = '2s'

/**
 * One backend, in one transaction: lock its row (SKIP LOCKED unless told to wait: then
 * 'locked' means another claimer holds it, or it just left routing), then count its
 * running tasks and take a task only if a slot is free. The count is a statement of its
 * own on purpose: under READ COMMITTED each statement sees what was committed when it
 * began, and every claim for this backend commits before it releases the lock we now
 * hold, so the count is exact. Counted in the statement that takes the lock, it could
 * miss a rival that committed while we waited for (or were about to take) the lock, and
 * overfill the backend.
 *
 * A task that failed here is tried again on another healthy instance of its pool while
 * there is one: the instance that answered it with an error would likely do so again,
 * and, failing fast, it is the one most often free. A task to probe is still taken here:
 * the job it asks about was sent here, and while this instance is an enabled member of the
 * pool no other instance may take it (the probe would ask a server that never had the job,
 * and the job would run twice); so is a task pinned here (a Midjourney button's, no pool
 * key), which no other instance may take.
 */
export async function claimOnBackend(candidate: Candidate, workerId: string, options: { wait?: boolean } = {}): Promise<ClaimedTask | 'locked' | null> {
  return db().$transaction(async (tx) => {
    let locked: { concurrency: number }[]
    if (options.wait) {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`)
      locked = await tx.$queryRaw<{ concurrency: number }[]>`
        SELECT "concurrency" FROM "AiModel"
        WHERE "id" = ${candidate.id} AND "healthy" AND ("enabled" OR "pool" IS NULL)
        FOR UPDATE`.catch((error: unknown) => {
        if (isLockTimeout(error)) return []
        throw error
      })
    } else {
      locked = await tx.$queryRaw<{ concurrency: number }[]>`
        SELECT "concurrency" FROM "AiModel"
        WHERE "id" = ${candidate.id} AND "healthy" AND ("enabled" OR "pool" IS NULL)
        FOR UPDATE SKIP LOCKED`
    }
    const [backend] = locked
    if (!backend) return 'locked'
    const rows = await tx.$queryRaw<ClaimedTask[]>`
      WITH running AS (
        SELECT count(*) AS n FROM "Task" r
        WHERE r."modelId" = ${candidate.id} AND r."status" = 'PENDING' AND r."stage" IN ('SUBMITTING', 'RUNNING')
      ), busy_users AS (
        SELECT u."userId", count(*) AS n FROM "Task" u
        WHERE u."status" = 'PENDING' AND u."stage" IN ('SUBMITTING', 'RUNNING')
        GROUP BY u."userId"
      ), chosen AS (
        SELECT t."id" FROM "Task" t LEFT JOIN busy_users b ON b."userId" = t."userId"
        WHERE t."status" = 'PENDING' AND t."stage" = 'QUEUED' AND t."runAfter" <= now()
          AND ((t."poolKey" IS NULL AND t."modelId" = ${candidate.id}) OR t."poolKey" = ${candidate.pool})
          AND (SELECT n FROM running) < ${backend.concurrency}
          AND NOT (t."attempts" > 0 AND NOT t."probeBeforeSubmit" AND t."poolKey" IS NOT NULL AND t."modelId" = ${candidate.id} AND EXISTS (
            SELECT 1 FROM "AiModel" o WHERE o."pool" = ${candidate.pool} AND o."id" <> ${candidate.id} AND o."healthy" AND o."enabled"))
          AND NOT (t."probeBeforeSubmit" AND t."poolKey" IS NOT NULL AND t."modelId" <> ${candidate.id} AND EXISTS (
            SELECT 1 FROM "AiModel" a WHERE a."id" = t."modelId" AND a."pool" = t."poolKey" AND a."enabled"))
        ORDER BY COALESCE(b.n, 0), t."createdAt"
        LIMIT 1 FOR UPDATE OF t SKIP LOCKED
      )
      UPDATE "Task" SET
        "modelId" = ${candidate.id}, "stage" = 'SUBMITTING', "leaseOwner" = ${workerId}, "leaseExpiresAt" = now() + ${`${leaseMs()} milliseconds`}::interval,
        "attempts" = "attempts" + 1, "startedAt" = COALESCE("startedAt", now()),
        "deadlineAt" = CASE WHEN "Task"."type" IN ('VIDEO_TEXT2VIDEO', 'VIDEO_IMG2VIDEO') THEN "Task"."deadlineAt"
          ELSE LEAST("Task"."deadlineAt", now() + ${`${RUN_TIMEOUT_MS} milliseconds`}::interval) END
      FROM chosen WHERE "Task"."id" = chosen."id"
      RETURNING "Task"."id", "Task"."upstreamId", "Task"."attempts", "Task"."probeBeforeSubmit"`
    return rows[0] ?? null
  })
}

/** PostgreSQL's lock_not_available (55P03), however the driver wraps it. */
function isLockTimeout(error: unknown): boolean {
  return /55P03|lock timeout/i.test(`${JSON.stringify(error)} ${error instanceof Error ? error.message : ''}`)
}
