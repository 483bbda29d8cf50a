/** A Beijing calendar day (YYYY-MM-DD) as the instant it starts. */
export function beijingDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+08:00`)
}

/** The Beijing calendar day an instant falls on. */
export function beijingDay(date = new Date()): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 10)
}

/** [from 00:00, the day after `to` 00:00) in Beijing time; either end may be open. */
export function beijingRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined
  return {
    ...(from ? { gte: beijingDayStart(from) } : {}),
    ...(to ? { lt: new Date(beijingDayStart(to).getTime() + 86_400_000) } : {}),
  }
}

/** An instant as Beijing wall-clock time, `YYYY-MM-DD HH:mm:ss`, whatever the server's time zone. */
export function beijingDateTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}

/** Milliseconds from `now` until the next Beijing day starts (a page showing 今日 reads again then). */
export function msUntilNextBeijingDay(now = new Date()): number {
  return beijingDayStart(beijingDay(now)).getTime() + 86_400_000 - now.getTime()
}
