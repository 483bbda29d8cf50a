import { describe, expect, it } from 'vitest'
import { DATE_FORMAT, formatCents, formatDateTime, parseYuanToCents } from '@/lib/format'

describe('formatCents (docs/PRODUCT.md §9: cents / 100 with 2 decimals)', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [10, '0.10'],
    [99, '0.99'],
    [100, '1.00'],
    [101, '1.01'],
    [1999, '19.99'],
    [12345, '123.45'],
    [100000000, '1000000.00'],
    [-5, '-0.05'],
    [-100, '-1.00'],
    [-12345, '-123.45'],
    [-0, '0.00'],
  ])('%i → %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected)
  })

  it('matches cents / 100 toFixed(2) for every integer in a range', () => {
    for (let cents = -1000; cents <= 1000; cents++) {
      expect(formatCents(cents), String(cents)).toBe((cents / 100).toFixed(2).replace(/^-0\.00$/, '0.00'))
    }
  })
})

describe('formatDateTime (docs/PRODUCT.md §9: YYYY-MM-DD HH:mm:ss)', () => {
  it('uses the documented format', () => {
    expect(DATE_FORMAT).toBe('YYYY-MM-DD HH:mm:ss')
  })

  it('formats a Date in local time with zero padding', () => {
    expect(formatDateTime(new Date(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05')
    expect(formatDateTime(new Date(2025, 11, 31, 23, 59, 59))).toBe('2025-12-31 23:59:59')
  })

  it('formats an ISO string (as the API sends dates)', () => {
    const iso = new Date(2024, 5, 7, 14, 8, 9).toISOString()
    expect(formatDateTime(iso)).toBe('2024-06-07 14:08:09')
  })

  it.each([null, undefined, '', 'not a date'])('%j → -', (value) => {
    expect(formatDateTime(value)).toBe('-')
  })

  it('an invalid Date → -', () => {
    expect(formatDateTime(new Date(Number.NaN))).toBe('-')
  })
})

describe('parseYuanToCents', () => {
  it.each([
    ['12', 1200],
    ['12.3', 1230],
    ['12.34', 1234],
    ['0.05', 5],
    ['-3.5', -350],
    ['+1', 100],
    [' 7 ', 700],
  ])('%j → %i', (text, cents) => expect(parseYuanToCents(text)).toBe(cents))

  it.each(['', 'abc', '1.234', '1,000', '1e3', '.5', '--1', '1.'])('refuses %j', (text) => expect(parseYuanToCents(text)).toBeNull())
})
