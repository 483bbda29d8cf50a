// Which plan would take benefits off a membership that is still running.
import { describe, expect, it } from 'vitest'
import { losesBenefits } from '@/lib/memberships/downgrade'

const premium = { dailyPoints: 100, discountPercent: 30, dailyMessages: null }

describe('losesBenefits', () => {
  it('an image plan as good or better in daily points and discount loses nothing', () => {
    expect(losesBenefits('IMAGE', premium, premium)).toBe(false)
    expect(losesBenefits('IMAGE', premium, { dailyPoints: 200, discountPercent: 30, dailyMessages: null })).toBe(false)
    // Chat messages are no image benefit: a stray value on an image plan decides nothing.
    expect(losesBenefits('IMAGE', premium, { dailyPoints: 100, discountPercent: 30, dailyMessages: 5 })).toBe(false)
  })

  it('less of either image benefit is a loss, even with more of the other; a missing value counts as none', () => {
    expect(losesBenefits('IMAGE', premium, { dailyPoints: 10, discountPercent: 50 })).toBe(true)
    expect(losesBenefits('IMAGE', premium, { dailyPoints: 100, discountPercent: 20 })).toBe(true)
    expect(losesBenefits('IMAGE', { dailyPoints: 5 }, {})).toBe(true)
  })

  it('a chat plan is compared by its daily messages, unlimited beating any number', () => {
    expect(losesBenefits('CHAT', { dailyMessages: 50 }, { dailyMessages: 80 })).toBe(false)
    expect(losesBenefits('CHAT', { dailyMessages: 50 }, { dailyMessages: null })).toBe(false)
    expect(losesBenefits('CHAT', { dailyMessages: null }, { dailyMessages: 1000 })).toBe(true)
    expect(losesBenefits('CHAT', { dailyMessages: 80, dailyPoints: 9 }, { dailyMessages: 50 })).toBe(true)
    expect(losesBenefits('CHAT', { dailyMessages: 80, dailyPoints: 9 }, { dailyMessages: 80 })).toBe(false)
  })
})
