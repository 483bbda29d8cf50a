import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { env } from '@/lib/env'

export type Db = PrismaClient
/** A transaction client, for domain functions that join their caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0]

const globalForDb = globalThis as unknown as { prisma?: PrismaClient }

/** The one Prisma client of this process, created on first use. */
export function db(): PrismaClient {
  if (!globalForDb.prisma) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env()
    const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE })
    globalForDb.prisma = new PrismaClient({ adapter })
  }
  return globalForDb.prisma
}

/** For tests and scripts that manage their own connection. */
export function createDb(connectionString: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) })
}

export async function disconnectDb(): Promise<void> {
  await globalForDb.prisma?.$disconnect()
  globalForDb.prisma = undefined
}
