import { describe, expect, it } from 'vitest'
import { beijingDay, beijingDateTime, msUntilNextBeijingDay } from '@/lib/beijing-time'

describe('Beijing time', () => {
  it('days turn at 16:00 UTC', () => {
    expect(beijingDay(new Date('2026-11-28T15:59:59.999Z'))).toBe('2026-11-28')
    expect(beijingDay(new Date('2026-11-28T16:00:00.000Z'))).toBe('2026-11-29')
    expect(beijingDateTime(new Date('2026-11-28T16:00:01.000Z'))).toBe('2026-11-29 00:00:01')
  })

  it('the next Beijing day starts at the next 16:00 UTC, never now', () => {
    expect(msUntilNextBeijingDay(new Date('2026-11-28T15:59:59.000Z'))).toBe(1_000)
    expect(msUntilNextBeijingDay(new Date('2026-11-28T16:00:00.000Z'))).toBe(86_400_000)
    expect(msUntilNextBeijingDay(new Date('2026-11-28T04:00:00.000Z'))).toBe(12 * 3_600_000)
  })
})
