// docs/PRODUCT.md §17: commission rounding, masking invitees, invite codes as typed.
import { describe, expect, it } from 'vitest'
import { commissionFor, maskName, normalizeInviteCode, ZCommissionUpdateSchema, ZInviteCodeSchema } from '@/lib/invites/schemas'

describe('commissionFor', () => {
  it('BALANCE: percent of the cents, rounded down to the cent', () => {
    expect(commissionFor(990, 10, 'BALANCE', 100)).toBe(99)
    expect(commissionFor(999, 15, 'BALANCE', 100)).toBe(149) // 149.85
    expect(commissionFor(1, 99, 'BALANCE', 100)).toBe(0)
    expect(commissionFor(2_000_000_00, 100, 'BALANCE', 100)).toBe(2_000_000_00)
  })

  it('POINTS: at pointsPerYuan, rounded down to a whole point', () => {
    expect(commissionFor(2999, 7, 'POINTS', 33)).toBe(69) // 69.2769
    expect(commissionFor(100, 10, 'POINTS', 100)).toBe(10)
    expect(commissionFor(1, 1, 'POINTS', 1)).toBe(0)
  })

  it('nothing for a zero rate or amount', () => {
    expect(commissionFor(1000, 0, 'BALANCE', 100)).toBe(0)
    expect(commissionFor(0, 50, 'POINTS', 100)).toBe(0)
  })
})

describe('maskName', () => {
  it('keeps the first and last character, hides a phone’s middle', () => {
    expect(maskName('张三丰')).toBe('张*丰')
    expect(maskName('张三')).toBe('张*')
    expect(maskName('a')).toBe('*')
    expect(maskName('friend12345')).toBe('f****5')
    expect(maskName('13812345678')).toBe('138****5678')
  })
})

describe('invite codes as typed', () => {
  it('ignore case and spaces; refuse look-alikes and other lengths', () => {
    expect(normalizeInviteCode('  ab3c7kpq ')).toBe('AB3C7KPQ')
    expect(ZInviteCodeSchema.parse(' ab3c7kpq')).toBe('AB3C7KPQ')
    expect(ZInviteCodeSchema.safeParse('AB3C7KP0').success).toBe(false)
    expect(ZInviteCodeSchema.safeParse('AB3C7KP').success).toBe(false)
  })

  it('settings: integer percents 0-100 per known order type', () => {
    expect(ZCommissionUpdateSchema.safeParse({ rates: { POINTS: 10 } }).success).toBe(true)
    expect(ZCommissionUpdateSchema.safeParse({ rates: { CASH: 10 } }).success).toBe(false)
    expect(ZCommissionUpdateSchema.safeParse({ rates: { POINTS: -1 } }).success).toBe(false)
    expect(ZCommissionUpdateSchema.safeParse({ extra: 1 }).success).toBe(false)
  })
})
