// A site of a spec's own, for specs that do things to its database the shared e2e server
// must not suffer: the production build started by scripts/start.ts and a separate worker
// (npm run worker), as tests/e2e/server.ts starts them, on a port and DATABASE_URL the spec
// chooses. Their output is kept so the spec can read it; both are stopped by stop().
import { spawn, type ChildProcess } from 'node:child_process'
import { rm } from 'node:fs/promises'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../../..')
const SERVER_CONDITION = '--conditions=react-server'

export const OWN_ADMIN = { username: 'admin', password: 'own-site-admin-password-1' }

export type OwnSite = {
  baseUrl: string
  web: ChildProcess
  worker: ChildProcess
  /** Everything both processes printed, in order, prefixed with web: or worker:. */
  output: string[]
  stop(): Promise<void>
}

function collect(child: ChildProcess, name: string, output: string[]) {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line) output.push(`${name}: ${line}`)
    })
  }
}

async function until(ready: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await ready().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`${what} not ready within ${timeoutMs / 1000} s`)
}

export async function startOwnSite({ port, databaseUrl, env = {} }: { port: number; databaseUrl: string; env?: Record<string, string> }): Promise<OwnSite> {
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = path.join(root, '.tmp', `own-site-${port}-${process.pid}`)
  const childEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    // Set, so that a developer's .env cannot point the launcher's migrations elsewhere.
    MIGRATION_DATABASE_URL: '',
    AUTH_SECRET: 'own-site-secret-0123456789abcdefghijklmnopqrstuvwxyz',
    ADMIN_USERNAME: OWN_ADMIN.username,
    ADMIN_PASSWORD: OWN_ADMIN.password,
    PORT: String(port),
    LISTEN_HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    RUN_WORKER_IN_WEB: 'false',
    ...env,
  }
  const output: string[] = []
  const web = spawn(process.execPath, [SERVER_CONDITION, '--import', 'tsx', path.join(root, 'scripts/start.ts')], { cwd: root, env: childEnv })
  collect(web, 'web', output)
  await until(async () => (await fetch(`${baseUrl}/api/site-config/site-info`)).ok, 120_000, 'the web process')
  const worker = spawn(process.execPath, [SERVER_CONDITION, '--import', 'tsx', path.join(root, 'scripts/worker.ts')], { cwd: root, env: childEnv })
  collect(worker, 'worker', output)
  await until(async () => output.some((line) => line.startsWith('worker: [worker] started')), 60_000, 'the worker')

  const end = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000)
    await exited
    clearTimeout(timer)
  }
  return {
    baseUrl,
    web,
    worker,
    output,
    async stop() {
      await Promise.all([end(worker), end(web)])
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
