// Which plan would take benefits off a membership that is still running.
import { describe, expect, it } from 'vitest'
import { losesBenefits } from '@/lib/memberships/downgrade'

const premium = { dailyPoints: 100, discountPercent: 30, dailyMessages: null }

describe('losesBenefits', () => {
  it('a plan as good or better in every benefit loses nothing', () => {
    expect(losesBenefits(premium, premium)).toBe(false)
    expect(losesBenefits(premium, { dailyPoints: 200, discountPercent: 30, dailyMessages: null })).toBe(false)
    expect(losesBenefits({ dailyMessages: 50 }, { dailyMessages: 80 })).toBe(false)
    expect(losesBenefits({ dailyMessages: 50 }, { dailyMessages: null })).toBe(false)
  })

  it('less of any one benefit is a loss, even with more of another', () => {
    expect(losesBenefits(premium, { dailyPoints: 10, discountPercent: 50, dailyMessages: null })).toBe(true)
    expect(losesBenefits(premium, { dailyPoints: 100, discountPercent: 20, dailyMessages: null })).toBe(true)
    expect(losesBenefits(premium, { dailyPoints: 100, discountPercent: 30 })).toBe(false)
  })

  it('unlimited chat messages beat any number; a missing value counts as none', () => {
    expect(losesBenefits({ dailyMessages: null }, { dailyMessages: 1000 })).toBe(true)
    expect(losesBenefits({ dailyMessages: 80 }, { dailyMessages: 50 })).toBe(true)
    expect(losesBenefits({ dailyPoints: 5 }, {})).toBe(true)
  })
})
