import 'server-only'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { env } from '@/lib/env'

export type Db = PrismaClient
/** A transaction client, for domain functions that join their caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0]

const globalForDb = globalThis as unknown as { prisma?: PrismaClient; pool?: pg.Pool }

/**
 * Every session runs in UTC: the columns are TIMESTAMP without time zone, Prisma reads and
 * writes them as UTC, and now() / CURRENT_TIMESTAMP in SQL must agree with that even when
 * the server's or database's time zone is, say, Asia/Shanghai.
 */
export const SESSION_OPTIONS = '-c TimeZone=UTC'

/**
 * Prisma's default wait for a transaction to start is 2 s. Bursts (many redemptions or
 * submits at once) queue for a pooled connection longer than that, and the embedded
 * database runs one transaction at a time; waiting longer beats failing with 503.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 15_000 }

/**
 * A pool whose idle connections may die (database restart, failover) without taking
 * the process with them: pg emits those errors on the pool, and an unheard 'error'
 * event would crash Node. The pool reconnects on the next query.
 */
function createPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, options: SESSION_OPTIONS })
  pool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`))
  return pool
}

/** The one Prisma client of this process, created on first use. */
export function db(): PrismaClient {
  if (!globalForDb.prisma) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env()
    globalForDb.pool = createPool(DATABASE_URL, DATABASE_POOL_SIZE)
    globalForDb.prisma = new PrismaClient({ adapter: new PrismaPg(globalForDb.pool), transactionOptions: TRANSACTION_OPTIONS })
  }
  return globalForDb.prisma
}

/** A client of its own for a script step (start-up); close() ends its connections. */
export function createDb(connectionString: string, max = 10): { client: PrismaClient; close(): Promise<void> } {
  const pool = createPool(connectionString, max)
  const client = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS })
  return { client, close: async () => (await client.$disconnect(), await pool.end()) }
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.prisma?.$disconnect()
  await globalForDb.pool?.end().catch(() => undefined)
  globalForDb.prisma = undefined
  globalForDb.pool = undefined
}
