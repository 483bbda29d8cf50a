import { describe, expect, it } from 'vitest'
import { pageWindow, type PageItem } from '@/lib/ui/page-window'
import { at } from '../helpers/present'

/** docs/PRODUCT.md §2.6 and §9: at most 6 page numbers, ellipses, first and last always shown. */
const numbers = (items: PageItem[]) => items.filter((i): i is number => typeof i === 'number')

describe('pageWindow examples', () => {
  it.each([
    [1, 1, [1]],
    [3, 6, [1, 2, 3, 4, 5, 6]],
    [1, 7, [1, 2, 3, 4, 5, 'ellipsis-right', 7]],
    [7, 7, [1, 'ellipsis-left', 3, 4, 5, 6, 7]],
    [1, 20, [1, 2, 3, 4, 5, 'ellipsis-right', 20]],
    [10, 20, [1, 'ellipsis-left', 9, 10, 11, 12, 'ellipsis-right', 20]],
    [20, 20, [1, 'ellipsis-left', 16, 17, 18, 19, 20]],
  ] as Array<[number, number, PageItem[]]>)('page %i of %i', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected)
  })

  it('no pages → nothing', () => {
    expect(pageWindow(1, 0)).toEqual([])
  })

  it('clamps a current page outside 1..total', () => {
    expect(pageWindow(0, 20)).toEqual(pageWindow(1, 20))
    expect(pageWindow(-5, 20)).toEqual(pageWindow(1, 20))
    expect(pageWindow(99, 20)).toEqual(pageWindow(20, 20))
  })
})

describe('pageWindow properties (every totalPages 1..40, every current page)', () => {
  for (let total = 1; total <= 40; total++) {
    it(`totalPages = ${total}`, () => {
      for (let current = 1; current <= total; current++) {
        const items = pageWindow(current, total)
        const label = `page ${current} of ${total}: ${JSON.stringify(items)}`
        const nums = numbers(items)

        expect(nums.length, label).toBeLessThanOrEqual(6)
        expect(nums.length, label).toBe(Math.min(total, 6))
        expect(nums[0], label).toBe(1)
        expect(nums[nums.length - 1], label).toBe(total)
        expect(nums, label).toContain(current)
        for (let i = 1; i < nums.length; i++) expect(nums[i], label).toBeGreaterThan(at(nums, i - 1))

        // First and last items are numbers; ellipses never touch each other.
        expect(typeof items[0], label).toBe('number')
        expect(typeof items[items.length - 1], label).toBe('number')
        // An ellipsis stands exactly where numbers are skipped, and only there.
        for (let i = 1; i < items.length; i++) {
          const prev = items[i - 1]
          const item = items[i]
          if (typeof prev === 'number' && typeof item === 'number') expect(item, label).toBe(prev + 1)
          if (typeof item !== 'number') {
            expect(typeof prev, label).toBe('number')
            const next = items[i + 1]
            expect(typeof next, label).toBe('number')
            expect((next as number) - (prev as number), label).toBeGreaterThan(1)
          }
        }
        // Left ellipsis only before the current page, right only after; each at most once.
        const left = items.indexOf('ellipsis-left')
        const right = items.indexOf('ellipsis-right')
        const currentIndex = items.indexOf(current)
        expect(items.filter((i) => i === 'ellipsis-left').length, label).toBeLessThanOrEqual(1)
        expect(items.filter((i) => i === 'ellipsis-right').length, label).toBeLessThanOrEqual(1)
        if (left >= 0) expect(left, label).toBeLessThan(currentIndex)
        if (right >= 0) expect(right, label).toBeGreaterThan(currentIndex)
        if (total <= 6) expect(left === -1 && right === -1, label).toBe(true)
      }
    })
  }
})
