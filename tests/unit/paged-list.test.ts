import { describe, expect, it } from 'vitest'
import { listParams, onlyPageDiffers, withFilters, withPage, type PagedListState } from '@/lib/api-client/use-paged-list'

// usePagedList (lib/api-client/use-paged-list.ts): what a console list asks the API, and how
// its page and filters move.

type Filters = { status: string; keyword: string; batchId: string }
const state = (page: number, filters: Partial<Filters> = {}): PagedListState<Filters> => ({
  page,
  pageSize: 20,
  filters: { status: '', keyword: '', batchId: '', ...filters },
})

describe('listParams', () => {
  it('sends page and pageSize and only the filters that are set, trimmed', () => {
    expect(listParams(state(3, { status: 'PENDING', keyword: '  C0001 ' }))).toEqual({ page: 3, pageSize: 20, status: 'PENDING', keyword: 'C0001' })
  })

  it('leaves out empty and blank filters, so the query key and the URL do not change with them', () => {
    expect(listParams(state(1, { keyword: '   ' }))).toEqual({ page: 1, pageSize: 20 })
  })
})

describe('withFilters', () => {
  it('goes back to the first page when a filter changes', () => {
    expect(withFilters(state(4), { status: 'SUCCESS' })).toEqual(state(1, { status: 'SUCCESS' }))
  })

  it('keeps the other filters', () => {
    expect(withFilters(state(2, { batchId: '7' }), { keyword: 'x' }).filters).toEqual({ status: '', keyword: 'x', batchId: '7' })
  })

  it('a search with the same filters goes back to page 1 like a search button, and changes nothing on page 1', () => {
    expect(withFilters(state(5, { keyword: 'a' }), { keyword: 'a' })).toEqual(state(1, { keyword: 'a' }))
    const first = state(1, { keyword: 'a' })
    expect(withFilters(first, { keyword: 'a' })).toBe(first)
  })
})

describe('withPage', () => {
  it('moves to a page, keeping the filters', () => {
    expect(withPage(state(1, { status: 'FAIL' }), 3)).toEqual(state(3, { status: 'FAIL' }))
  })

  it('takes whole pages from 1 up only', () => {
    expect(withPage(state(2), 0).page).toBe(1)
    expect(withPage(state(2), -4).page).toBe(1)
    expect(withPage(state(2), 2.7).page).toBe(2)
    expect(withPage(state(2), Number.NaN).page).toBe(1)
  })

  it('returns the same state when the page does not change (no re-render, no refetch)', () => {
    const s = state(2)
    expect(withPage(s, 2)).toBe(s)
  })
})

describe('onlyPageDiffers', () => {
  const key = (page: number, filters: Partial<Filters> = {}) => ['admin', 'cards', 'list', listParams(state(page, filters))]

  it('lets a new page show the last page while it loads', () => {
    expect(onlyPageDiffers(key(1, { status: 'FAIL' }), key(2, { status: 'FAIL' }))).toBe(true)
    expect(onlyPageDiffers(key(3), key(3))).toBe(true)
  })

  it("never lets a new filter, page size or list show another one's rows", () => {
    expect(onlyPageDiffers(key(1), key(1, { status: 'FAIL' }))).toBe(false)
    expect(onlyPageDiffers(key(2, { status: 'FAIL' }), key(1, { status: 'SUCCESS' }))).toBe(false)
    expect(onlyPageDiffers(key(1, { keyword: 'C01' }), key(1, { keyword: 'C012' }))).toBe(false)
    expect(onlyPageDiffers(['admin', 'cards', 'list', { page: 1, pageSize: 20 }], ['admin', 'cards', 'list', { page: 1, pageSize: 50 }])).toBe(false)
    expect(onlyPageDiffers(['admin', 'cards', 'list', { page: 1, pageSize: 20 }], ['admin', 'users', 'list', { page: 1, pageSize: 20 }])).toBe(false)
  })
})
