// The site as Playwright tests it: the production build started by the same launcher a
// site owner uses (scripts/start.ts), on a fresh database that is dropped afterwards.
import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { createTestDatabase } from '../helpers/test-database'
import { E2E_ADMIN, E2E_PORT } from './support/constants'

const root = path.resolve(import.meta.dirname, '../..')
const dataDir = path.join(root, '.tmp', `e2e-data-${process.pid}`)
const database = await createTestDatabase('aiimg_e2e')

const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'scripts/start.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    AUTH_SECRET: 'e2e-secret-0123456789abcdefghijklmnopqrstuvwxyz',
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    PORT: String(E2E_PORT),
    LISTEN_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RUN_WORKER_IN_WEB: 'true',
  },
})

let cleaning = false
async function cleanUp(code: number) {
  if (cleaning) return
  cleaning = true
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve).once('error', resolve))
  await database.drop().catch((e) => console.error('[e2e] dropping the database failed', e))
  await rm(dataDir, { recursive: true, force: true })
  process.exit(code)
}
process.on('SIGTERM', () => void cleanUp(0))
process.on('SIGINT', () => void cleanUp(0))
child.on('exit', (code) => void cleanUp(code ?? 1))
