/** Beijing calendar dates (YYYY-MM-DD) for the analysis range; the API counts days in Beijing time. */
const BEIJING_OFFSET_MS = 8 * 3600 * 1000
const DAY_MS = 24 * 3600 * 1000

export const MAX_RANGE_DAYS = 366

export function beijingDate(at: number): string {
  return new Date(at + BEIJING_OFFSET_MS).toISOString().slice(0, 10)
}

/** The last `days` days up to today, today included. */
export function lastDays(days: number, now = Date.now()): { from: string; to: string } {
  return { from: beijingDate(now - (days - 1) * DAY_MS), to: beijingDate(now) }
}

/** Days from `from` to `to`, both included (0 when the order is wrong). */
export function rangeLength({ from, to }: { from: string; to: string }): number {
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS
  return Number.isFinite(span) && span >= 0 ? span + 1 : 0
}
