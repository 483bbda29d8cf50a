import 'server-only'
import pg from 'pg'
import { dbPool } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'

/**
 * A TIMESTAMP (without time zone, stored as UTC; ISO DateStyle, lib/db.ts) as the text its
 * Date would have in JSON: `2026-01-01 08:00:01.123456` → `2026-01-01T08:00:01.123Z`. The
 * lists only send their timestamps, so a Date made here (through Next.js's instrumented
 * constructor) and turned back into this text by JSON.stringify was work for nothing.
 */
export function isoTimestamp(value: string): string {
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${`${value.slice(20, 23)}000`.slice(0, 3)}Z`
}

/** A row type as readRows answers it: its timestamps are the ISO text of isoTimestamp. */
export type Listed<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] }

/**
 * Column types read so that a query moved here answers the same JSON as Prisma's
 * `$queryRaw`: TIMESTAMP as its ISO text (above), DATE as a UTC Date, int8 as BigInt. pg's
 * own parsers would read the timestamps in the process's time zone.
 */
const PARSERS: Record<number, (value: string) => unknown> = {
  20: (value) => BigInt(value),
  1082: (value) => new Date(`${value}T00:00:00Z`),
  1114: isoTimestamp,
}
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => (format !== 'binary' && PARSERS[oid]) || pg.types.getTypeParser(oid, format as 'text'),
} as pg.CustomTypesConfig

/** Dates go as UTC text: pg would send local time with an offset, which a TIMESTAMP column drops. */
const valueOf = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value)

/**
 * One read statement sent straight to the pool under db(), past Prisma's query engine, for
 * the busiest lists (docs/DECISIONS.md, "Speed: prepared statements, reads on pg"): the rows
 * as objects, typed as `$queryRaw` types them but for timestamps (`Listed`). Not for writes
 * or transactions: those stay with Prisma. A socket error (the database unreachable) is
 * reported as the driver adapter reports it, so the request still answers 503.
 * `dbPool('generic')` as the second argument runs it on its generic plan. A list's statement
 * writes each row as JSON text itself (./json-rows.ts), which goes into the answer unparsed. A list cuts its page
 * first and then looks up each row's related rows by key, one `LEFT JOIN LATERAL (… LIMIT 1)`
 * each, so no plan can merge the page with a whole table (docs/DECISIONS.md, "Each page row's
 * related rows by key").
 */
export async function readRows<Rows extends object[]>(query: Prisma.Sql, { pool, names }: ReturnType<typeof dbPool> = dbPool()): Promise<Rows> {
  try {
    const result = await pool.query({ text: query.text, values: query.values.map(valueOf), types, name: names?.({ sql: query.text }) })
    return result.rows as Rows
  } catch (error) {
    if (typeof (error as { code?: unknown }).code === 'string' && /^E[A-Z]+$/.test((error as { code: string }).code)) {
      throw new Error('database unreachable', { cause: { kind: 'DatabaseNotReachable', error } })
    }
    throw error
  }
}

/**
 * A page size written into the statement instead of bound: a generic plan then knows the
 * page is small (a bound LIMIT counts as a tenth of the table) and keeps to the index. Only
 * for a validated size, so the texts stay few.
 */
export function pageLimit(take: number): Prisma.Sql {
  if (!Number.isInteger(take) || take < 0 || take > 1_000) throw new Error(`not a page size: ${take}`)
  return Prisma.raw(String(take))
}
