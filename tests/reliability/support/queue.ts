// What queue-faults.spec.ts drives: worker processes of its own (started as `npm run
// worker` is, with the e2e worker's environment), SQL on the e2e database, and the admin
// API calls that make models and users.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { expect, type APIRequestContext } from '@playwright/test'
import { E2E_DATABASE_URL_FILE, E2E_WORKER_PID_FILE } from '../../e2e/support/constants'
import { environmentOf } from '../../e2e/support/process-env'
import { loginViaApi, uniqueName } from '../../e2e/support/session'

const root = path.resolve(import.meta.dirname, '../../..')

/** The e2e worker's own environment (DATABASE_URL, AUTH_SECRET, DATA_DIR, the fakes' hosts), read from /proc. */
export function e2eWorkerEnv(): NodeJS.ProcessEnv {
  return environmentOf(readFileSync(E2E_WORKER_PID_FILE, 'utf8').trim())
}

export type WorkerProcess = { pid: number; child: ChildProcess; exited: Promise<void>; log: string[] }

/** A worker process as `npm run worker` starts one; resolves once its task runner is up. */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(root, 'scripts/worker.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log: string[] = []
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString())
      if (log.join('').includes('task runner')) resolve()
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    void exited.then(() => reject(new Error(`worker exited before it started:\n${log.join('')}`)))
  })
  await ready
  return { pid: child.pid!, child, exited, log }
}

export async function startWorkers(count: number, env: NodeJS.ProcessEnv): Promise<WorkerProcess[]> {
  return Promise.all(Array.from({ length: count }, () => startWorker(env)))
}

/** Ends workers with a signal and waits until they are gone (SIGKILL: no drain, no cleanup). */
export async function killWorkers(workers: WorkerProcess[], signal: NodeJS.Signals): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill(signal)
  await Promise.all(workers.map((w) => w.exited))
}

let pool: pg.Pool | null = null
/** SQL on the e2e database. */
export async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: readFileSync(E2E_DATABASE_URL_FILE, 'utf8').trim(), max: 4 })
  return (await pool.query<T>(text, values)).rows
}
export async function closeSql(): Promise<void> {
  await pool?.end()
  pool = null
}

export type TaskRow = {
  id: string
  userId: string
  status: string
  stage: string
  attempts: number
  maxAttempts: number
  errorCode: string | null
  leaseExpiresAt: Date | null
  startedAt: Date | null
  finishedAt: Date | null
  charges: number
  refunds: number
  results: number
}

/** The tasks of these models, each with its ledger charge and refund rows counted. */
export async function tasksOf(modelIds: string[]): Promise<TaskRow[]> {
  return sql<TaskRow>(
    `SELECT t."id", t."userId", t."status", t."stage", t."attempts", t."maxAttempts", t."errorCode", t."leaseExpiresAt", t."startedAt", t."finishedAt",
       (SELECT count(*)::int FROM "LedgerEntry" l WHERE l."reference" = 'task:' || t."id" || ':charge') AS "charges",
       (SELECT count(*)::int FROM "LedgerEntry" l WHERE l."reference" IN ('task:' || t."id" || ':refund', 'task:' || t."id" || ':shortfall')) AS "refunds",
       jsonb_array_length(t."results")::int AS "results"
     FROM "Task" t WHERE t."modelId" = ANY($1) OR t."poolKey" IN (SELECT "pool" FROM "AiModel" WHERE "id" = ANY($1) AND "pool" IS NOT NULL)
     ORDER BY t."createdAt"`,
    [modelIds],
  )
}

/** An SD WebUI model at a fake, 1 point per image. */
export async function createSdModel(
  request: APIRequestContext,
  admin: Record<string, string>,
  data: { name: string; endpoint: string; concurrency: number; pool?: string },
): Promise<string> {
  const res = await request.post('/api/admin/models', {
    headers: admin,
    data: { backend: 'sd-webui', prices: { SD_TEXT2IMG: 1 }, pool: null, ...data },
  })
  expect(res.ok(), await res.text()).toBeTruthy()
  return (await res.json()).data.id
}

export async function disableModel(request: APIRequestContext, admin: Record<string, string>, id: string): Promise<void> {
  const res = await request.patch(`/api/admin/models/${id}`, { headers: admin, data: { enabled: false } })
  expect(res.ok(), await res.text()).toBeTruthy()
}

/** A user made by the admin and given points by an adjustment. One at a time: parallel logins from one address are throttled. */
export async function userWithPoints(request: APIRequestContext, admin: Record<string, string>, points: number) {
  const username = uniqueName('qf')
  const created = await request.post('/api/admin/user', { headers: admin, data: { username, name: username, password: 'e2e-password-9', role: 'USER' } })
  expect(created.ok(), await created.text()).toBeTruthy()
  const auth = { authorization: `Bearer ${await loginViaApi(request, username, 'e2e-password-9')}` }
  const me = (await (await request.get('/api/users/profile', { headers: auth })).json()).data
  const adjusted = await request.post(`/api/admin/user/${me.id}/adjust`, {
    headers: { ...admin, 'Idempotency-Key': crypto.randomUUID() },
    data: { points, reason: 'queue faults' },
  })
  expect(adjusted.ok(), await adjusted.text()).toBeTruthy()
  return { id: me.id as string, auth }
}

/** A text-to-image task on this model: the answer, not checked. */
export function submit(request: APIRequestContext, auth: Record<string, string>, modelId: string, prompt: string, steps = 1) {
  return request.post('/api/tasks', {
    headers: auth,
    data: { type: 'SD_TEXT2IMG', modelId, params: { prompt, width: 64, height: 64, count: 1, steps } },
  })
}

/** Sets a site setting and returns its previous value (to put back). */
export async function setSetting(request: APIRequestContext, admin: Record<string, string>, name: string, value: number): Promise<number | null> {
  const [before] = await sql<{ value: string }>(`SELECT "value" FROM "SiteConfig" WHERE "name" = $1`, [name])
  const res = await request.patch(`/api/site-config/${name}`, { headers: admin, data: { value } })
  expect(res.ok(), await res.text()).toBeTruthy()
  return before ? Number(before.value) : null
}
