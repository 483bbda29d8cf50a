// The site as Playwright tests it, in the production topology: the build started by
// the launcher a site owner uses (scripts/start.ts) and a separate worker process
// (npm run worker), on a fresh database that is dropped afterwards.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createTestDatabase } from '../helpers/test-database'
import { E2E_ADMIN, E2E_DATABASE_URL_FILE, E2E_PORT, E2E_SECRETS_FILE, E2E_WEB_PID_FILE, E2E_WORKER_PID_FILE } from './support/constants'
import { startPaymentFakes } from './support/payment-fakes'
import { startSignInFakes } from './support/sign-in-fakes'

const root = path.resolve(import.meta.dirname, '../..')
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const dataDir = path.join(root, '.tmp', `e2e-data-${process.pid}`)
const database = await createTestDatabase('aiimg_e2e')
await mkdir(path.dirname(E2E_DATABASE_URL_FILE), { recursive: true })
await writeFile(E2E_DATABASE_URL_FILE, database.url)
// WeChat and the SMS providers are fakes; the site finds them through its env.
const signInFakes = await startSignInFakes()
const paymentFakes = await startPaymentFakes()

const env = {
  ...process.env,
  DATABASE_URL: database.url,
  // Set, so that a developer's .env cannot point the launcher's migrations elsewhere.
  MIGRATION_DATABASE_URL: '',
  AUTH_SECRET: 'e2e-secret-0123456789abcdefghijklmnopqrstuvwxyz',
  ADMIN_USERNAME: E2E_ADMIN.username,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  PORT: String(E2E_PORT),
  LISTEN_HOST: '127.0.0.1',
  // A production site needs its public address for WeChat sign-in (OAuth callback, QR codes).
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  DATA_DIR: dataDir,
  RUN_WORKER_IN_WEB: 'false',
  ...signInFakes.env,
  ...paymentFakes.env,
}

// As `npm start` and `npm run worker` run them: with the react-server condition, under which
// 'server-only' (imported by every module that touches the database) is an empty module.
const SERVER_CONDITION = '--conditions=react-server'
const web = spawn(process.execPath, [tsx, SERVER_CONDITION, path.join(root, 'scripts/start.ts')], { cwd: root, stdio: 'inherit', env })
await writeFile(E2E_WEB_PID_FILE, String(web.pid))
// Every secret this script sets (not public keys), for the crawl that must never find one in an answer.
const ours = { AUTH_SECRET: env.AUTH_SECRET, ADMIN_PASSWORD: env.ADMIN_PASSWORD, ...signInFakes.env, ...paymentFakes.env }
const secrets = Object.entries(ours).filter(
  ([name, value]) => /SECRET|PRIVATE|PASSWORD|API_V3_KEY/.test(name) && typeof value === 'string' && value.length >= 8,
)
await writeFile(E2E_SECRETS_FILE, JSON.stringify(Object.fromEntries(secrets)))
let worker: ChildProcess | undefined

// The worker starts once the launcher has migrated the database.
const startWorker = setInterval(async () => {
  const ready = await fetch(`http://127.0.0.1:${E2E_PORT}/api/site-config/site-info`).then(
    (r) => r.ok,
    () => false,
  )
  if (!ready || worker) return
  clearInterval(startWorker)
  // `node --import tsx`, not the tsx CLI, which would run the script in a child process
  // that SIGSTOP sent to this pid would not reach.
  worker = spawn(process.execPath, [SERVER_CONDITION, '--import', 'tsx', path.join(root, 'scripts/worker.ts')], { cwd: root, stdio: 'inherit', env })
  await mkdir(path.dirname(E2E_WORKER_PID_FILE), { recursive: true })
  await writeFile(E2E_WORKER_PID_FILE, String(worker.pid))
}, 500)

let cleaning = false
async function cleanUp(code: number) {
  if (cleaning) return
  cleaning = true
  clearInterval(startWorker)
  for (const child of [worker, web]) {
    if (!child || child.exitCode !== null) continue
    child.kill('SIGCONT')
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  await database.drop().catch((e) => console.error('[e2e] dropping the database failed', e))
  await signInFakes.close()
  await paymentFakes.close()
  await rm(dataDir, { recursive: true, force: true })
  await rm(E2E_WORKER_PID_FILE, { force: true })
  await rm(E2E_DATABASE_URL_FILE, { force: true })
  await rm(E2E_WEB_PID_FILE, { force: true })
  await rm(E2E_SECRETS_FILE, { force: true })
  process.exit(code)
}
process.on('SIGTERM', () => void cleanUp(0))
process.on('SIGINT', () => void cleanUp(0))
web.on('exit', (code) => void cleanUp(code ?? 1))
