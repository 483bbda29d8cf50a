// Generation-engine benchmark (issue: generation engine): submit-to-backend-call latency
// (p50/p99) and throughput with an instant fake SD WebUI, for 1 and 4 worker processes;
// and the idle database load of the workers (transactions per second with nothing
// queued, which LISTEN/NOTIFY should keep near zero). Prints figures; asserts nothing.
// Run: npm run bench:tasks
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { benchDatabase, fmt, load, percentile } from './support'

const TASKS = Number(process.env.BENCH_TASKS ?? 200)
// Each task is also stored: decoded, marked, PNG-encoded with its thumbnail (CPU the workers share).
const SUBMIT_CONCURRENCY = 20
const IDLE_SECONDS = 20

const database = await benchDatabase('tasks')
const dataDir = await mkdtemp(path.join(tmpdir(), 'aiimg-bench-'))
process.env.DATA_DIR = dataDir
const { startFakeSdWebui } = await import('../tests/fakes/sd-webui')
const { callRoute, createUser } = await import('../tests/helpers/call-route')
const tasksRoute = await import('../app/api/tasks/route')
const { db, disconnectDb } = await import('../lib/db')
const root = path.resolve(import.meta.dirname, '..')
const fake = await startFakeSdWebui({ stepMs: 0 })
const stats = new pg.Client({ connectionString: database.url })
await stats.connect()

function startWorkers(count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts')], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, WORKER_TASK_SLOTS: '8' },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      return new Promise<ChildProcess>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('task runner') && resolve(child)))
    }),
  )
}

async function stopWorkers(workers: ChildProcess[]) {
  await Promise.all(workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.kill('SIGTERM')))))
}

async function transactions(): Promise<number> {
  const { rows } = await stats.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')
  return Number(rows[0].n)
}

try {
  const model = await db().aiModel.create({ data: { name: 'instant', backend: 'sd-webui', endpoint: fake.url, prices: { SD_TEXT2IMG: 1 }, concurrency: 64 } })
  const users = await Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, () => createUser({ points: 1_000_000 })))
  await db().siteConfig.create({ data: { name: 'TASK_MAX_PENDING_PER_USER', value: '100' } })
  const rows: Array<Record<string, string>> = []

  const submit = async (i: number, submittedAt: Map<string, number>) => {
    const at = performance.timeOrigin + performance.now()
    const res = await callRoute(tasksRoute.POST, { token: users[i % SUBMIT_CONCURRENCY].token, body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: `bench ${i}`, width: 64, height: 64 } } })
    if (res.status !== 200) throw new Error(JSON.stringify(res.body))
    submittedAt.set(res.body.data.id, at)
  }
  const drained = async () => {
    while ((await db().task.count({ where: { status: 'PENDING' } })) > 0) await new Promise((r) => setTimeout(r, 20))
  }
  const latencies = (submittedAt: Map<string, number>) =>
    fake.calls
      .filter((c) => c.path === '/sdapi/v1/txt2img' && submittedAt.has((c.body as { force_task_id: string }).force_task_id))
      .map((c) => c.at - submittedAt.get((c.body as { force_task_id: string }).force_task_id)!)
      .sort((a, b) => a - b)

  // The database's own background work (autovacuum, statistics) with no worker running.
  const idleTx = async () => {
    await stats.query('VACUUM ANALYZE') // leaves autovacuum nothing to do while we count
    await new Promise((r) => setTimeout(r, 1000))
    const before = await transactions()
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))
    return ((await transactions()) - before - 1) / IDLE_SECONDS
  }
  const baseline = await idleTx()

  for (const workerCount of [1, 4]) {
    const workers = await startWorkers(workerCount)
    // Idle: the workers run, nothing is queued.
    const idle = await idleTx()

    // One task at a time: how long from the submit request to the backend's call.
    const single = new Map<string, number>()
    for (let i = 0; i < 50; i++) {
      await submit(i, single)
      await drained()
    }

    // A burst: TASKS submitted by 20 clients at once.
    const burst = new Map<string, number>()
    const first = performance.timeOrigin + performance.now()
    await load(TASKS, SUBMIT_CONCURRENCY, (i) => submit(i, burst))
    await drained()
    const last = (await db().task.aggregate({ _max: { finishedAt: true } }))._max.finishedAt!.getTime()
    const one = latencies(single)
    const many = latencies(burst)
    rows.push({
      workers: `${workerCount} × 8 slots`,
      'latency, one at a time p50 / p99': `${fmt(percentile(one, 50))} / ${fmt(percentile(one, 99))}`,
      [`latency, burst of ${TASKS} p50 / p99`]: `${fmt(percentile(many, 50))} / ${fmt(percentile(many, 99))}`,
      'burst throughput': `${(TASKS / ((last - first) / 1000)).toFixed(1)} tasks/s`,
      'not SUCCESS': String(await db().task.count({ where: { status: { not: 'SUCCESS' } } })),
      'idle DB load (workers − baseline)': `${Math.max(0, idle - baseline).toFixed(2)} tx/s`,
    })
    await stopWorkers(workers)
    await db().task.deleteMany({})
  }
  console.log(`\nGeneration engine — instant fake SD WebUI, PostgreSQL at ${new URL(database.url).host}`)
  console.table(rows)
} finally {
  await stats.end()
  await fake.close()
  await disconnectDb()
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
}
