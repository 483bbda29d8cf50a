import 'server-only'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { env } from '@/lib/env'

export type Db = PrismaClient
/** A transaction client, for domain functions that join their caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0]

type StatementNames = (query: { sql: string }) => string
const globalForDb = globalThis as unknown as { prisma?: PrismaClient; pool?: pg.Pool; genericPool?: pg.Pool; names?: StatementNames }

/**
 * Every session runs in UTC: the columns are TIMESTAMP without time zone, Prisma reads and
 * writes them as UTC, and now() / CURRENT_TIMESTAMP in SQL must agree with that even when
 * the server's or database's time zone is, say, Asia/Shanghai. And timestamps are sent as
 * ISO text (`2026-01-01 08:00:00.123`), which the readers parse, whatever DateStyle the
 * server was given. Floats are written in their shortest exact form (PostgreSQL 12's default),
 * as JavaScript writes them, in the JSON the lists' rows are written in (lib/db/json-rows.ts).
 */
export const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=1'

/**
 * Prisma's default wait for a transaction to start is 2 s. Bursts (many redemptions or
 * submits at once) queue for a pooled connection longer than that, and the embedded
 * database runs one transaction at a time; waiting longer beats failing with 503.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 }

/**
 * How long the app waits on the database before it gives up and answers 503
 * (docs/DECISIONS.md, "Database timeouts"). Without them a database behind a silent
 * network (packets dropped, nothing refused) holds every request and worker loop forever.
 * - a new connection, TCP and start-up: 5 s (a healthy one takes milliseconds);
 * - a free pooled connection, for a query or a transaction: 15 s, as TRANSACTION_OPTIONS;
 * - one statement's answer: 20 s, above the slowest statement the app sends (10,000 card
 *   keys in one INSERT).
 * None for the embedded database: it is in this process, no network can swallow its
 * answers, and it serves even a new connection's start-up only between transactions.
 */
export type DbTimeouts = { connectMs: number; poolWaitMs: number; statementMs: number }
export const DB_TIMEOUTS: DbTimeouts = { connectMs: 5_000, poolWaitMs: 15_000, statementMs: 20_000 }

/** pg's pool reads one connectionTimeoutMillis for both waits; each new connection gets its own, shorter one here. */
function timedClient(connectMs: number): typeof pg.Client {
  return class TimedClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: connectMs })
    }
  }
}

/** Whether pg stopped waiting for a statement (query_timeout) whose answer never came: the connection is still busy with it. */
function waitingForAnswer(client: pg.PoolClient): boolean {
  return Boolean((client as unknown as { _getActiveQuery?(): unknown })._getActiveQuery?.())
}

/**
 * A pool whose connections may die (database restart, failover, a cut network) without
 * taking the process with them: pg emits the errors of idle ones on the pool, and an
 * unheard 'error' event would crash Node. A connection that failed is dropped and the next
 * query opens a new one, so the pool heals itself when the database is back.
 */
export function createPool(connectionString: string, max: number, timeouts: DbTimeouts | null, options = SESSION_OPTIONS): pg.Pool {
  const limits = timeouts ? { Client: timedClient(timeouts.connectMs), connectionTimeoutMillis: timeouts.poolWaitMs, query_timeout: timeouts.statementMs } : {}
  const pool = new pg.Pool({ connectionString, max, options, keepAlive: true, keepAliveInitialDelayMillis: 10_000, ...limits })
  pool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`))
  // The Prisma adapter releases a transaction's connection without its error, so one whose
  // statement timed out would go back to the pool still waiting for that answer, and the
  // next statement on it would wait out a timeout of its own. Ending it drops it from the pool.
  pool.on('release', (error, client) => {
    if (!error && waitingForAnswer(client)) void client.end().catch(() => undefined)
  })
  return pool
}

/**
 * Names Prisma's statements so that each pooled connection parses a statement once and then
 * only binds it, and PostgreSQL may keep its plan: on a busy list that is a third of the
 * database's work per page (docs/DECISIONS.md, "Speed: prepared statements, reads on pg"). A statement
 * text gets one name for the life of the process; past `limit` texts, new ones go unnamed, so
 * a run of ad-hoc texts cannot grow every connection's cache without end.
 */
export function statementNames(limit = 2_000): StatementNames {
  const names = new Map<string, string>()
  return ({ sql }) => {
    let name = names.get(sql)
    if (name === undefined && names.size < limit) names.set(sql, (name = `q${names.size + 1}`))
    // pg reads an absent name as an unnamed statement, parsed anew each time.
    return name as string
  }
}

/** The one Prisma client of this process, created on first use. */
export function db(): PrismaClient {
  if (!globalForDb.prisma) {
    const { DATABASE_URL, DATABASE_POOL_SIZE, EMBEDDED_DATABASE } = env()
    globalForDb.pool = createPool(DATABASE_URL, DATABASE_POOL_SIZE, EMBEDDED_DATABASE ? null : DB_TIMEOUTS)
    // Not on the embedded database: its connections share one session, where names would collide.
    globalForDb.names = EMBEDDED_DATABASE ? undefined : statementNames()
    const adapter = new PrismaPg(globalForDb.pool, globalForDb.names ? { statementNameGenerator: globalForDb.names } : {})
    globalForDb.prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS })
  }
  return globalForDb.prisma
}

/**
 * The pool under db() and its statement names, for the reads that skip Prisma (lib/db/read-rows.ts).
 * They share the names, so a text gets the same one whichever way it reaches a connection.
 * `generic`: a pool of its own (half the size) whose connections always run a prepared
 * statement on its generic plan, planned once per connection, for the reads whose best plan
 * does not depend on their values (docs/DECISIONS.md, "Speed: prepared statements, reads on
 * pg"). Left to itself PostgreSQL plans those anew every time, because a generic plan's
 * estimate looks worse than a plan for the values at hand. The embedded database has one
 * session for every connection, so there the main pool serves them.
 */
export function dbPool(plan: 'custom' | 'generic' = 'custom'): { pool: pg.Pool; names?: StatementNames } {
  db()
  if (plan === 'custom' || !globalForDb.names) return { pool: globalForDb.pool!, names: globalForDb.names }
  if (!globalForDb.genericPool) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env()
    globalForDb.genericPool = createPool(
      DATABASE_URL,
      Math.ceil(DATABASE_POOL_SIZE / 2),
      DB_TIMEOUTS,
      `${SESSION_OPTIONS} -c plan_cache_mode=force_generic_plan`,
    )
  }
  return { pool: globalForDb.genericPool, names: globalForDb.names }
}

/** A client of its own for a script step (start-up); close() ends its connections. */
export function createDb(connectionString: string, max = 10): { client: PrismaClient; close(): Promise<void> } {
  // Start-up steps (the first admin) wait for the database, embedded or not.
  const pool = createPool(connectionString, max, null)
  const client = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS })
  return { client, close: async () => (await client.$disconnect(), await pool.end()) }
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.prisma?.$disconnect()
  await globalForDb.pool?.end().catch(() => undefined)
  await globalForDb.genericPool?.end().catch(() => undefined)
  globalForDb.prisma = undefined
  globalForDb.pool = undefined
  globalForDb.genericPool = undefined
  globalForDb.names = undefined
}
