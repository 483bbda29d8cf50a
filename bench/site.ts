// Shared by the HTTP benchmarks: the production build started as a site owner starts it
// (scripts/start.ts: migrations, the first ADMIN, the demo models, then the Next.js server
// behind the small peer-address server) on a fresh database, without a worker process.
import { spawn } from 'node:child_process'
import { readFile, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { benchDatabase } from './support'

export const BENCH_ADMIN = { username: 'admin', password: 'bench-admin-password-1' }

/**
 * `root`: another checkout's build to start instead of this one; `database`: a database it
 * shares with another site (not dropped when this one stops).
 */
export async function startSite(name: string, port: number, shared: { root?: string; database?: { url: string } } = {}) {
  const root = shared.root ?? path.resolve(import.meta.dirname, '..')
  const database = shared.database ? { url: shared.database.url, drop: async () => undefined } : await benchDatabase(name)
  const base = `http://127.0.0.1:${port}`
  const dataDir = path.join(root, '.tmp', `bench-${name}-${process.pid}`)
  const web = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      AUTH_SECRET: process.env.AUTH_SECRET,
      ADMIN_USERNAME: BENCH_ADMIN.username,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      PORT: String(port),
      LISTEN_HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      RUN_WORKER_IN_WEB: 'false',
    },
  })
  for (let i = 0; ; i++) {
    if (web.exitCode !== null) throw new Error('the web server exited')
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (i > 600) throw new Error('the web server did not start')
    await new Promise((r) => setTimeout(r, 500))
  }
  return {
    base,
    databaseUrl: database.url,
    pid: web.pid!,
    async stop() {
      web.kill('SIGTERM')
      await new Promise((r) => (web.exitCode !== null ? r(null) : web.once('exit', r)))
      await database.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A process and all its descendants (from /proc). */
async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (ppid) parents.set(Number(entry), ppid)
  }
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child)
  return tree
}

/** Resident memory of a process and all its descendants, in MB (from /proc). */
export async function treeRssMb(pid: number): Promise<number> {
  let kb = 0
  for (const p of await processTree(pid)) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '')
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  }
  return kb / 1024
}

const TICK_MS = 10 // USER_HZ is 100 on Linux

/** CPU time (user + system) used so far by these processes, in ms (from /proc). */
async function cpuMs(pids: number[]): Promise<Map<number, number>> {
  const used = new Map<number, number>()
  for (const p of pids) {
    const stat = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => '')
    if (!stat) continue
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    used.set(p, (Number(fields[11]) + Number(fields[12])) * TICK_MS)
  }
  return used
}

/**
 * Measures the CPU the site spends on some work, split between the web process tree and the
 * PostgreSQL backends serving its database (found by pid in pg_stat_activity). On a machine
 * shared with other work, CPU per request is steadier than requests per second.
 */
export async function siteCpu(webPid: number, backends: () => Promise<number[]>) {
  const web = await processTree(webPid)
  const webBefore = await cpuMs(web)
  const dbBefore = await cpuMs(await backends())
  const spent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((ms, [p, t]) => ms + t - (before.get(p) ?? 0), 0)
  return async () => ({ web: spent(webBefore, await cpuMs(web)), db: spent(dbBefore, await cpuMs(await backends())) })
}
