// Starts the site: `npm start` (production build) or `npm run dev`.
// Without DATABASE_URL it runs the embedded PostgreSQL (PGlite) under DATA_DIR and
// makes up the secrets the embedded default needs; then it applies migrations (as the
// MIGRATION_DATABASE_URL role when set), creates the first administrator, and runs
// Next.js with the finished environment.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv, processEnvironment } from '../lib/env'
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

async function main() {
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
    embedded = await startEmbeddedDatabase(path.join(dataDir, 'pg'))
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
  if (await ensureDemoModel(setup.client)) console.log('[start] added the built-in demo renderer as the first generation model')
  const smsRows = await setup.client.siteConfig.findMany({ where: { name: { in: SMS_STARTUP_SETTINGS } }, select: { name: true, value: true } })
  const smsNotice = smsStartupNotice(new Map(smsRows.map((r) => [r.name, r.value])), Boolean(embedded) || isDev)
  if (smsNotice) console.log(smsNotice)
  await setup.close()
  if (admin.created) printAdmin(admin.username, admin.generatedPassword)

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
  const child = spawn(process.execPath, [server, ...serverArgs], {
    stdio: 'inherit',
    env: {
      ...inherited,
      NODE_ENV: isDev ? 'development' : 'production',
      PORT: String(config.PORT),
      LISTEN_HOST: config.LISTEN_HOST,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: authSecret,
      ...(embedded ? { RUN_WORKER_IN_WEB: inherited.RUN_WORKER_IN_WEB ?? 'true', EMBEDDED_DATABASE: 'true' } : {}),
    },
  })

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    child.kill(signal)
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  child.on('exit', async (code, signal) => {
    await embedded?.stop().catch((e) => console.error('[start] closing the embedded database failed', e))
    process.exit(code ?? (signal ? 0 : 1))
  })
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
