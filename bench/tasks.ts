// Generation-engine benchmark (issue: generation engine): submit-to-backend-call latency
// (p50/p99) and throughput with an instant fake SD WebUI, for 1 and 4 worker processes;
// and the idle database load of the workers: the statements the worker processes send
// while nothing is queued (counted on the wire by a relay between them and PostgreSQL),
// over a window longer than every periodic job's interval (sweeper 30 s, health check
// and idle queue look 60 s). LISTEN/NOTIFY should keep it near zero. Prints figures;
// asserts nothing.   Run: npm run bench:tasks   (BENCH_IDLE_SECONDS, at least 120)
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { at } from '../tests/helpers/present'
import { benchDatabase, fmt, load, percentile } from './support'

const TASKS = Number(process.env.BENCH_TASKS ?? 200)
// Each task is also stored: decoded, marked, PNG-encoded with its thumbnail (CPU the workers share).
const SUBMIT_CONCURRENCY = 20
const IDLE_SECONDS = Math.max(120, Number(process.env.BENCH_IDLE_SECONDS ?? 150))

const database = await benchDatabase('tasks')
const dataDir = await mkdtemp(path.join(tmpdir(), 'aiimg-bench-'))
process.env.DATA_DIR = dataDir
const { startFakeSdWebui } = await import('../tests/fakes/sd-webui')
const { callRoute, createUser } = await import('../tests/helpers/call-route')
const tasksRoute = await import('../app/api/tasks/route')
const { db, disconnectDb } = await import('../lib/db')
const root = path.resolve(import.meta.dirname, '..')
const fake = await startFakeSdWebui({ stepMs: 0 })
const relay = await statementCountingRelay(new URL(database.url))

/**
 * A TCP relay to PostgreSQL that counts the statements its clients send: each simple
 * Query message and each Execute of the extended protocol (what pg sends for a
 * parameterised query) is one statement. The server's answers pass through untouched.
 */
async function statementCountingRelay(target: URL) {
  let statements = 0
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    upstream.pipe(client)
    let pending = Buffer.alloc(0)
    let inStartup = true // the first message (and an SSL/GSS request before it) has no type byte
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk)
      pending = Buffer.concat([pending, chunk])
      for (;;) {
        if (inStartup) {
          if (pending.length < 8 || pending.length < pending.readInt32BE(0)) break
          const code = pending.readInt32BE(4)
          if (code !== 80877103 && code !== 80877104) inStartup = false
          pending = pending.subarray(pending.readInt32BE(0))
        } else {
          if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) break
          if (pending[0] === 0x51 /* Q */ || pending[0] === 0x45 /* E */) statements++
          pending = pending.subarray(1 + pending.readInt32BE(1))
        }
      }
    })
    const end = () => (client.destroy(), upstream.destroy())
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String((server.address() as net.AddressInfo).port)
  return { url: url.toString(), statements: () => statements, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

function startWorkers(count: number, databaseUrl = database.url): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      // As `npm run worker` runs it: 'server-only' resolves to its empty module under react-server.
      const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(root, 'scripts/worker.ts')], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WORKER_TASK_SLOTS: '8' },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      return new Promise<ChildProcess>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('task runner') && resolve(child)))
    }),
  )
}

async function stopWorkers(workers: ChildProcess[]) {
  await Promise.all(workers.map((w) => new Promise((resolve) => (w.once('exit', resolve), w.kill('SIGTERM')))))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Statements per second the workers send with nothing queued, after their start-up work. */
async function idleStatementsPerSecond(workerCount: number): Promise<{ perSecond: number; statements: number }> {
  const workers = await startWorkers(workerCount, relay.url)
  await sleep(5_000) // start-up: the first run of each periodic job, the first look at the queue
  const before = relay.statements()
  await sleep(IDLE_SECONDS * 1000)
  const statements = relay.statements() - before
  await stopWorkers(workers)
  return { perSecond: statements / IDLE_SECONDS, statements }
}

try {
  const model = await db().aiModel.create({ data: { name: 'instant', backend: 'sd-webui', endpoint: fake.url, prices: { SD_TEXT2IMG: 1 }, concurrency: 64 } })
  const users = await Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, () => createUser({ points: 1_000_000 })))
  await db().siteConfig.create({ data: { name: 'TASK_MAX_PENDING_PER_USER', value: '100' } })
  const rows: Array<Record<string, string>> = []

  const submit = async (i: number, submittedAt: Map<string, number>) => {
    const sentAt = performance.timeOrigin + performance.now()
    const res = await callRoute(tasksRoute.POST, {
      token: at(users, i % SUBMIT_CONCURRENCY).token,
      body: { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: `bench ${i}`, width: 64, height: 64 } },
    })
    if (res.status !== 200) throw new Error(JSON.stringify(res.body))
    submittedAt.set(res.body.data.id, sentAt)
  }
  const drained = async () => {
    while ((await db().task.count({ where: { status: 'PENDING' } })) > 0) await new Promise((r) => setTimeout(r, 20))
  }
  const latencies = (submittedAt: Map<string, number>) =>
    fake.calls
      .filter((c) => c.path === '/sdapi/v1/txt2img' && submittedAt.has((c.body as { force_task_id: string }).force_task_id))
      .map((c) => c.at - submittedAt.get((c.body as { force_task_id: string }).force_task_id)!)
      .sort((a, b) => a - b)

  for (const workerCount of [1, 4]) {
    // Idle: the workers run, nothing is queued.
    const idle = await idleStatementsPerSecond(workerCount)
    const workers = await startWorkers(workerCount)

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
      [`idle DB load, ${IDLE_SECONDS} s`]: `${idle.perSecond.toFixed(3)} statements/s (${idle.statements}; ${(idle.perSecond / workerCount).toFixed(3)} per worker)`,
    })
    await stopWorkers(workers)
    await db().task.deleteMany({})
  }
  console.log(`\nGeneration engine — instant fake SD WebUI, PostgreSQL at ${new URL(database.url).host}`)
  console.table(rows)
} finally {
  await relay.close()
  await fake.close()
  await disconnectDb()
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
}
