import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { at } from '../helpers/present'

/**
 * The README's first command on a fresh machine: `npm start` with no DATABASE_URL runs the
 * embedded database under DATA_DIR, prints the generated admin password once, and keeps
 * everything across Ctrl-C and a restart. A second start on the same folder is refused.
 */
const root = path.resolve(import.meta.dirname, '../..')
const PORT = Number(process.env.E2E_EMBEDDED_PORT ?? 3231)
const BASE = `http://127.0.0.1:${PORT}`

type Started = { child: ChildProcess; output: () => string }

function startSite(dataDir: string, port = PORT): Started {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LISTEN_HOST: '127.0.0.1', WORKER_DRAIN_SECONDS: '2' }
  for (const name of ['RUN_WORKER_IN_WEB', 'EMBEDDED_DATABASE']) delete env[name]
  // Empty rather than deleted: a developer's .env must not fill them in (an empty variable is unset to the site).
  for (const name of ['DATABASE_URL', 'MIGRATION_DATABASE_URL', 'AUTH_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD']) env[name] = ''
  // Its own process group, so "Ctrl-C" reaches the launcher and the web server as in a terminal.
  // As `npm start` runs it: node with tsx's loader, not the tsx CLI, whose signal relay SIGKILLs a
  // busy child that does not acknowledge Ctrl-C within 30 ms (and exits 130).
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk) => (text += chunk))
  child.stderr!.on('data', (chunk) => (text += chunk))
  return { child, output: () => text }
}

async function waitFor(started: Started, pattern: RegExp, timeoutMs = 90_000): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const match = started.output().match(pattern)
    if (match) return match
    if (started.child.exitCode !== null) throw new Error(`the site exited (${started.child.exitCode}):\n${started.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`timed out waiting for ${pattern}:\n${started.output()}`)
}

async function pressCtrlC(started: Started): Promise<number | null> {
  if (started.child.exitCode !== null) return started.child.exitCode
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)))
  process.kill(-started.child.pid!, 'SIGINT')
  return exited
}

let dataDir = ''
const running: Started[] = []

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'aiimg-embedded-start-'))
})

test.afterAll(async () => {
  for (const started of running) await pressCtrlC(started).catch(() => undefined)
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

test('npm start on the embedded default: printed admin password, data kept across Ctrl-C and restart, one process per data folder', async ({ page }) => {
  test.setTimeout(240_000)
  const first = startSite(dataDir)
  running.push(first)
  const password = at(await waitFor(first, /Password \(shown only this once\): (\S+)/), 1)
  await waitFor(first, /\[web\] ready on/)

  // The administrator signs in with the printed password, like a person reading the console.
  await page.goto(`${BASE}/login_by_password`)
  await page.getByLabel('用户名').fill('admin')
  await page.getByLabel('密码', { exact: true }).fill(password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(`${BASE}/`)
  await page.goto(`${BASE}/admin/user_mana`)
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toBeVisible()

  // A trial site sends no SMS: the launcher says where the codes go, and so does the page.
  expect(first.output()).toMatch(/SMS provider is "log": verification codes are written to this log/)
  const adminToken = (await (await page.request.post(`${BASE}/api/auth/login`, { data: { username: 'admin', password } })).json()).data.token
  const switched = await page.request.patch(`${BASE}/api/site-config/SMS_LOGIN_ENABLED`, {
    data: { value: true },
    headers: { authorization: `Bearer ${adminToken}` },
  })
  expect(switched.ok(), await switched.text()).toBe(true)
  await page.evaluate(() => localStorage.clear())
  await page.goto(`${BASE}/login/fastlogin`)
  await page.getByLabel('手机号').fill('13900001111')
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect(page.getByText(/^试用站点：验证码已写入服务器日志（/)).toBeVisible()
  const smsCode = at(await waitFor(first, /SMS to 13900001111: (\d{6})/), 1)
  await page.getByLabel('验证码').fill(smsCode)
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check()
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(`${BASE}/`)

  // Something to survive the restart: a registered user.
  const register = await page.request.post(`${BASE}/api/auth/register`, { data: { username: 'keepme', password: 'keep-me-password-1' } })
  expect(register.ok()).toBe(true)

  // A second start on the same folder is refused instead of opening the same files.
  const second = startSite(dataDir, PORT + 1)
  running.push(second)
  const code = await new Promise<number | null>((resolve) => second.child.once('exit', resolve))
  expect(code).not.toBe(0)
  expect(second.output()).toMatch(/in use by process/)

  expect(await pressCtrlC(first)).toBe(0)

  const again = startSite(dataDir)
  running.push(again)
  await waitFor(again, /\[web\] ready on/)
  expect(again.output()).not.toMatch(/Password \(shown only this once\)/)
  const login = await page.request.post(`${BASE}/api/auth/login`, { data: { username: 'keepme', password: 'keep-me-password-1' } })
  expect((await login.json()).success).toBe(true)
  const admin = await page.request.post(`${BASE}/api/auth/login`, { data: { username: 'admin', password } })
  expect((await admin.json()).success).toBe(true)
  expect(await pressCtrlC(again)).toBe(0)
})
