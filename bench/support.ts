// Shared by the benchmarks: a scratch database, timing and percentiles, printing.
import { at } from '../tests/helpers/present'
import { createTestDatabase } from '../tests/helpers/test-database'

export async function benchDatabase(name: string) {
  const database = await createTestDatabase(`aiimg_bench_${name}`)
  process.env.DATABASE_URL = database.url
  process.env.AUTH_SECRET ??= 'benchmark-secret-0123456789abcdefghijklmnop'
  process.env.DATABASE_POOL_SIZE ??= '20'
  return database
}

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await work()
  return { ms: performance.now() - start, value }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return at(sorted, Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)))
}

/** Runs `total` calls with `concurrency` in flight; returns each call's latency, sorted. */
export async function load(total: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = []
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++
        const t = performance.now()
        await call(i)
        latencies.push(performance.now() - t)
      }
    }),
  )
  return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - start }
}

export type Row = { what: string; ours: string; floor: string; ratio: string }

export function printTable(title: string, rows: Row[]) {
  console.log(`\n${title}`)
  console.table(rows.map((r) => ({ measurement: r.what, 'app (route handler + Prisma)': r.ours, 'floor (pg, raw SQL)': r.floor, 'app / floor': r.ratio })))
}

export const fmt = (ms: number) => `${ms.toFixed(1)} ms`
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
