// Starts the site: `npm start` (production build) or `npm run dev`.
// Without DATABASE_URL it runs the embedded PostgreSQL (PGlite) under DATA_DIR and
// makes up the secrets the embedded default needs; then it applies migrations (as the
// MIGRATION_DATABASE_URL role when set), creates the first administrator, and runs
// Next.js with the finished environment.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv, processEnvironment } from '../lib/env'
import { loadEnvFiles } from './env-files'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../lib/db/embedded'
import { applyMigrations } from '../lib/db/migrate'
import { createDb } from '../lib/db'
import { ensureAdmin, ensureDemoModel } from '../lib/users/ensure-admin'
import { SMS_STARTUP_SETTINGS, smsStartupNotice } from '../lib/auth/sms/startup-notice'

const isDev = process.argv.includes('--dev')

async function readOrCreateSecret(file: string): Promise<string> {
  const existing = await readFile(file, 'utf8').catch(() => '')
  if (existing.trim().length >= 32) return existing.trim()
  const secret = randomBytes(48).toString('base64url')
  await writeFile(file, secret + '\n', { mode: 0o600 })
  return secret
}

function printAdmin(username: string, password: string | null) {
  const lines = password
    ? [`Administrator created: ${username}`, `Password (shown only this once): ${password}`, 'Sign in at /login_by_password and change it on /profile.']
    : [`Administrator created: ${username} (password from ADMIN_PASSWORD)`]
  const width = Math.max(...lines.map((l) => l.length)) + 4
  console.log(['', '='.repeat(width), ...lines.map((l) => `  ${l}`), '='.repeat(width), ''].join('\n'))
}

/** The embedded database, from when it starts opening: closed before this process exits, however it exits (PGlite killed mid-write may not open again). */
let embeddedOpening: Promise<EmbeddedDatabase> | undefined
/** The server, once spawned: a signal goes to it, and its exit ends this process. */
let child: ChildProcess | undefined

let closing: Promise<void> | undefined
/** Closes the embedded database once, however many paths ask: every exit waits for the one close. */
function closeEmbedded(): Promise<void> {
  closing ??= (async () => {
    const database = await embeddedOpening?.catch(() => undefined)
    await database?.stop().catch((e) => console.error('[start] closing the embedded database failed', e))
  })()
  return closing
}

/** The signal that stops the launcher before its server runs, if one came. */
let stopSignal: NodeJS.Signals | undefined
const exitCodeOf = (signal: NodeJS.Signals) => 128 + (os.constants.signals[signal] ?? 0)

function stop(signal: NodeJS.Signals) {
  if (stopSignal || child?.killed) return
  // Once the server runs, it stops itself and its exit ends this process (below).
  if (child) return void child.kill(signal)
  // Before that (migrations, first-start setup): main sees the signal at its next step; a
  // database still opening is closed as soon as it is open.
  stopSignal = signal
  void closeEmbedded().finally(() => process.exit(exitCodeOf(signal)))
}

/** Asked before the server is spawned: a signal that came meanwhile ends the start there. */
function stopRequested(): boolean {
  return stopSignal !== undefined
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))

async function main() {
  loadEnvFiles(isDev)
  const config = parseEnv()
  if (config.MIGRATION_DATABASE_URL && !config.DATABASE_URL) {
    throw new Error('MIGRATION_DATABASE_URL is set without DATABASE_URL: set both (the app role and the schema owner), or neither for the embedded database.')
  }
  let embedded: EmbeddedDatabase | undefined
  let databaseUrl = config.DATABASE_URL
  let authSecret = config.AUTH_SECRET

  if (!databaseUrl) {
    const dataDir = path.resolve(config.DATA_DIR)
    await mkdir(dataDir, { recursive: true })
    console.log(`[start] no DATABASE_URL: embedded PostgreSQL in ${path.join(dataDir, 'pg')}`)
    embeddedOpening = startEmbeddedDatabase(path.join(dataDir, 'pg'))
    embedded = await embeddedOpening
    databaseUrl = embedded.url
    authSecret ??= await readOrCreateSecret(path.join(dataDir, 'auth-secret'))
  } else if (!authSecret) {
    throw new Error('Missing environment variable AUTH_SECRET: with DATABASE_URL set it must be provided (openssl rand -base64 48).')
  }
  process.env.DATABASE_URL = databaseUrl
  process.env.AUTH_SECRET = authSecret

  // As the schema owner when MIGRATION_DATABASE_URL is set. Otherwise as DATABASE_URL, which
  // may also be a role limited to rows once a separate migrate step has run (web in
  // docker-compose.yml): finding nothing pending needs no rights.
  const applied = await applyMigrations(config.MIGRATION_DATABASE_URL ?? databaseUrl)
  console.log(applied.length ? `[start] applied migrations: ${applied.join(', ')}` : '[start] database schema is up to date')

  const setup = createDb(databaseUrl, 1)
  const admin = await ensureAdmin(setup.client, config.ADMIN_USERNAME, config.ADMIN_PASSWORD)
  // Shown at once: if anything below fails, the next start finds the ADMIN and has no password to show.
  if (admin.created) printAdmin(admin.username, admin.generatedPassword)
  if (await ensureDemoModel(setup.client)) console.log('[start] added the built-in demo renderer as the first generation model')
  const smsRows = await setup.client.siteConfig.findMany({ where: { name: { in: SMS_STARTUP_SETTINGS } }, select: { name: true, value: true } })
  const smsNotice = smsStartupNotice(new Map(smsRows.map((r) => [r.name, r.value])), Boolean(embedded) || isDev)
  if (smsNotice) console.log(smsNotice)
  await setup.close()

  if (stopRequested()) return
  const server = path.join(path.dirname(fileURLToPath(import.meta.url)), 'next-server.mjs')
  // The running app never needs the schema owner's credentials.
  const { MIGRATION_DATABASE_URL: _owner, ...inherited } = processEnvironment()
  // The server reads no environment of its own: what it needs comes as arguments.
  const serverArgs = [
    '--port',
    String(config.PORT),
    '--host',
    config.LISTEN_HOST,
    '--drain-seconds',
    String(config.WORKER_DRAIN_SECONDS),
    ...(isDev ? ['--dev'] : []),
  ]
  child = spawn(process.execPath, [server, ...serverArgs], {
    stdio: 'inherit',
    env: {
      ...inherited,
      NODE_ENV: isDev ? 'development' : 'production',
      PORT: String(config.PORT),
      LISTEN_HOST: config.LISTEN_HOST,
      DATABASE_URL: databaseUrl,
      // Empty rather than left out: Next.js's own .env reading (a dev reload) could bring it back.
      MIGRATION_DATABASE_URL: '',
      AUTH_SECRET: authSecret,
      ...(embedded ? { RUN_WORKER_IN_WEB: inherited.RUN_WORKER_IN_WEB ?? 'true', EMBEDDED_DATABASE: 'true' } : {}),
    },
  })

  child.on('exit', async (code, signal) => {
    await closeEmbedded()
    // The server ends itself with 0 on SIGTERM/SIGINT, so a death by a signal was abnormal (SIGKILL,
    // the OOM killer): reported as the shell would, so a restart-on-failure policy restarts it.
    process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1))
  })
}

main().catch(async (error) => {
  // Stopping by a signal: what failed was cut off by the database closing; the signal's exit stands.
  if (!stopRequested()) console.error(`[start] ${error instanceof Error ? error.message : error}`)
  await closeEmbedded()
  process.exit(stopSignal ? exitCodeOf(stopSignal) : 1)
})
