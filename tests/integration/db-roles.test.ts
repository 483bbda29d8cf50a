// The database roles docker-compose.yml sets up (docker/postgres/roles.sql), on a database
// of their own made the way the compose file makes it: roles first (as the superuser), then
// migrations as the owner, then the app running as the app role. The app works; the
// append-only ledger and audit log hold against it, and TRUNCATE is refused for everyone.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as loginRoute from '@/app/api/auth/login/route'
import * as registerRoute from '@/app/api/auth/register/route'
import * as adjustRoute from '@/app/api/admin/user/[id]/adjust/route'
import * as redeemRoute from '@/app/api/my-cards/redeem/route'
import { newRequestId } from '@/lib/api-client/request-id'
import { createDb, db, disconnectDb } from '@/lib/db'
import { applyMigrations } from '@/lib/db/migrate'
import { ensureAdmin, ensureDemoModel } from '@/lib/users/ensure-admin'
import { readyCards, freshKeys } from '../helpers/cards-fixtures'
import { callRoute, createUser } from '../helpers/call-route'
import { expectOk } from '../helpers/expect-response'
import { SERVER_URL, createTestDatabase, truncateAll } from '../helpers/test-database'
import { only } from '../helpers/present'

const ROLES_SQL = readFileSync(path.resolve(import.meta.dirname, '../../docker/postgres/roles.sql'), 'utf8')
const tag = `${process.pid}_${Date.now().toString(36)}`
const OWNER = `aiimg_it_owner_${tag}`
const APP = `aiimg_it_app_${tag}`
const PASSWORD = 'it-role-password'
const DATABASE = `aiimg_it_roles_${tag}`
/** A database migrated by the superuser before the roles existed (an older installation). */
let older: Awaited<ReturnType<typeof createTestDatabase>>

function urlFor(database: string, role?: string): string {
  const url = new URL(SERVER_URL)
  url.pathname = `/${database}`
  if (role) {
    url.username = role
    url.password = PASSWORD
  }
  return url.toString()
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** What docker/postgres/10-aiimg-roles.sh does: the settings, then roles.sql, as the superuser. */
async function runRolesSql(database: string) {
  await withClient(urlFor(database), async (client) => {
    for (const [name, value] of Object.entries({ owner_role: OWNER, owner_password: PASSWORD, app_role: APP, app_password: PASSWORD })) {
      await client.query('SELECT set_config($1, $2, false)', [`aiimg.${name}`, value])
    }
    await client.query(ROLES_SQL)
  })
}

const attempt = (url: string, sql: string) => withClient(url, (client) => client.query(sql))

beforeAll(async () => {
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE "${DATABASE}"`))
  await runRolesSql(DATABASE)
  // The migrate service, as the owner; then web's `npm start` as the app role finds nothing to apply.
  expect((await applyMigrations(urlFor(DATABASE, OWNER))).length).toBeGreaterThan(0)
  expect(await applyMigrations(urlFor(DATABASE, APP))).toEqual([])
  process.env.DATABASE_URL = urlFor(DATABASE, APP)
}, 120_000)

afterAll(async () => {
  await disconnectDb()
  await older?.drop()
  await withClient(SERVER_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`)
    await client.query(`DROP ROLE IF EXISTS "${APP}"`)
    await client.query(`DROP ROLE IF EXISTS "${OWNER}"`)
  })
})

describe('the app role (compose web and worker)', () => {
  it('does the app’s work: first start, sign-up and login, ledger, audit log, card numbers, rate limits', async () => {
    expect(only(await db().$queryRaw<{ user: string }[]>`SELECT current_user AS "user"`).user).toBe(APP)

    const setup = createDb(urlFor(DATABASE, APP), 1)
    try {
      expect(await ensureAdmin(setup.client, 'roles_admin', 'a-long-admin-password')).toMatchObject({ created: true })
      expect(await ensureDemoModel(setup.client)).toBe(true)
    } finally {
      await setup.close()
    }

    expectOk(await callRoute(registerRoute.POST, { body: { username: 'roles_user', password: 'quiet-river-42' }, ip: '10.7.0.1' }))
    expect((await callRoute(loginRoute.POST, { body: { username: 'roles_user', password: 'wrong-password' }, ip: '10.7.0.1' })).status).toBe(400)
    const user = expectOk(await callRoute(loginRoute.POST, { body: { username: 'roles_user', password: 'quiet-river-42' }, ip: '10.7.0.1' }))
    expect(user.token).toEqual(expect.any(String))

    const admin = await createUser({ role: 'ADMIN', points: 10 })
    const member = await createUser({ points: 5 })
    expectOk(
      await callRoute(adjustRoute.POST, {
        token: admin.token,
        params: { id: member.id },
        body: { points: 20, reason: '角色测试', requestId: newRequestId() },
        ip: '10.7.0.2',
      }),
    )
    const [card] = await readyCards(admin, freshKeys(1, 'R'), { points: 30 })
    expect(card.cardNo).toMatch(/^C\d{8}$/)
    expectOk(await callRoute(redeemRoute.POST, { token: member.token, body: { cardKey: card.key }, ip: '10.7.0.3' }))

    expect((await db().user.findUniqueOrThrow({ where: { id: member.id } })).points).toBe(55)
    expect(await db().ledgerEntry.count({ where: { userId: member.id } })).toBe(3)
    expect(await db().adminAuditLog.count()).toBeGreaterThan(0)
  })

  it('cannot change or empty the ledger and the audit log, nor switch their triggers off', async () => {
    const app = urlFor(DATABASE, APP)
    const ledgerRows = await db().ledgerEntry.count()
    const auditRows = await db().adminAuditLog.count()
    expect(ledgerRows).toBeGreaterThan(0)

    await expect(attempt(app, `UPDATE "LedgerEntry" SET "amount" = "amount" + 1`)).rejects.toThrow(/LedgerEntry is append-only/)
    await expect(attempt(app, `DELETE FROM "LedgerEntry"`)).rejects.toThrow(/LedgerEntry is append-only/)
    await expect(attempt(app, `TRUNCATE "LedgerEntry"`)).rejects.toThrow(/permission denied/)
    await expect(attempt(app, `UPDATE "AdminAuditLog" SET "action" = 'x'`)).rejects.toThrow(/AdminAuditLog is append-only/)
    await expect(attempt(app, `DELETE FROM "AdminAuditLog"`)).rejects.toThrow(/AdminAuditLog is append-only/)
    await expect(attempt(app, `TRUNCATE "AdminAuditLog"`)).rejects.toThrow(/permission denied/)
    await expect(attempt(app, `TRUNCATE "User" CASCADE`)).rejects.toThrow(/permission denied/)
    // The ways round a trigger: all for owners or superusers only.
    await expect(attempt(app, `ALTER TABLE "LedgerEntry" DISABLE TRIGGER ALL`)).rejects.toThrow(/must be owner/)
    await expect(attempt(app, `DROP TRIGGER "LedgerEntry_append_only" ON "LedgerEntry"`)).rejects.toThrow(/must be owner/)
    await expect(attempt(app, `SET session_replication_role = replica`)).rejects.toThrow(/permission denied/)
    await expect(attempt(app, `CREATE TABLE "Sneaky" (id int)`)).rejects.toThrow(/permission denied for schema public/)

    expect(await db().ledgerEntry.count()).toBe(ledgerRows)
    expect(await db().adminAuditLog.count()).toBe(auditRows)
  })
})

describe('TRUNCATE of the append-only tables', () => {
  it('is refused by trigger for the owner and the superuser too, also when a CASCADE reaches them', async () => {
    const ledgerRows = await db().ledgerEntry.count()
    for (const url of [urlFor(DATABASE, OWNER), urlFor(DATABASE)]) {
      await expect(attempt(url, `TRUNCATE "LedgerEntry"`)).rejects.toThrow(/LedgerEntry is append-only/)
      await expect(attempt(url, `TRUNCATE "AdminAuditLog"`)).rejects.toThrow(/AdminAuditLog is append-only/)
      await expect(attempt(url, `TRUNCATE "User" CASCADE`)).rejects.toThrow(/append-only/)
    }
    expect(await db().ledgerEntry.count()).toBe(ledgerRows)
  })

  it('the test helper truncateAll still empties every table, and leaves the guard on', async () => {
    await truncateAll(urlFor(DATABASE))
    expect(await db().ledgerEntry.count()).toBe(0)
    expect(await db().adminAuditLog.count()).toBe(0)
    expect(await db().user.count()).toBe(0)
    await expect(attempt(urlFor(DATABASE), `TRUNCATE "LedgerEntry"`)).rejects.toThrow(/LedgerEntry is append-only/)
  })
})

describe('roles.sql on an older installation (tables made by the superuser)', () => {
  it('hands every object to the owner, and the app role works there', async () => {
    older = await createTestDatabase('aiimg_it_roles_older')
    const database = new URL(older.url).pathname.slice(1)
    await runRolesSql(database)
    const notOwned = await withClient(urlFor(database), async (client) => {
      const { rows } = await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'S', 'v') AND pg_get_userbyid(c.relowner) <> $1
         UNION ALL SELECT t.typname FROM pg_type t WHERE t.typnamespace = 'public'::regnamespace AND t.typtype = 'e' AND pg_get_userbyid(t.typowner) <> $1
         UNION ALL SELECT p.proname FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND pg_get_userbyid(p.proowner) <> $1`,
        [OWNER],
      )
      return rows.map((r) => r.name)
    })
    expect(notOwned).toEqual([])

    expect(await applyMigrations(urlFor(database, OWNER))).toEqual([])
    await withClient(urlFor(database, APP), async (client) => {
      await client.query(`INSERT INTO "User" ("id", "username", "name", "updatedAt") VALUES ('older-1', 'older_user', 'older', now())`)
      expect((await client.query(`SELECT next_card_no() AS no`)).rows[0].no).toMatch(/^C\d{8}$/)
      await expect(client.query(`TRUNCATE "User" CASCADE`)).rejects.toThrow(/permission denied/)
    })
  })
})
