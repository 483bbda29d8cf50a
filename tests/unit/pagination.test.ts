import { describe, expect, it } from 'vitest'
import { nearerEndWindow } from '@/lib/http/pagination'

describe('nearerEndWindow', () => {
  it('reads early pages from the newest end', () => {
    expect(nearerEndWindow({ skip: 0, take: 20 }, 45)).toEqual({ order: 'desc', skip: 0, take: 20 })
    expect(nearerEndWindow({ skip: 20, take: 20 }, 45)).toEqual({ order: 'desc', skip: 20, take: 20 })
  })
  it('reads the last page from the oldest end, with its shorter size', () => {
    expect(nearerEndWindow({ skip: 40, take: 20 }, 45)).toEqual({ order: 'asc', skip: 0, take: 5 })
    expect(nearerEndWindow({ skip: 99_980, take: 20 }, 100_000)).toEqual({ order: 'asc', skip: 0, take: 20 })
  })
  it('gives nothing past the end', () => {
    expect(nearerEndWindow({ skip: 60, take: 20 }, 45)).toBeNull()
    expect(nearerEndWindow({ skip: 0, take: 20 }, 0)).toBeNull()
  })
  it('covers every row exactly once across all pages, in order', () => {
    for (const total of [1, 19, 20, 21, 45, 100, 101]) {
      const rows = Array.from({ length: total }, (_, i) => total - i) // ids newest first
      const asc = [...rows].reverse()
      const seen: number[] = []
      for (let skip = 0; skip < total; skip += 20) {
        const w = nearerEndWindow({ skip, take: 20 }, total)!
        const page = w.order === 'desc' ? rows.slice(w.skip, w.skip + w.take) : asc.slice(w.skip, w.skip + w.take).reverse()
        seen.push(...page)
      }
      expect(seen).toEqual(rows)
    }
  })
})
