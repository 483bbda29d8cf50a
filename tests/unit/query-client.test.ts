import { keepPreviousData } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/api-client/query-client'

describe('makeQueryClient (docs/PRODUCT.md §9 query defaults)', () => {
  it('does not refetch on focus or retry, keeps nothing cached and keeps previous data while loading', () => {
    const { queries, mutations } = makeQueryClient().getDefaultOptions()
    expect(queries?.refetchOnWindowFocus).toBe(false)
    expect(queries?.retry).toBe(false)
    expect(queries?.gcTime).toBe(0)
    expect(queries?.placeholderData).toBe(keepPreviousData)
    expect(mutations?.retry).toBe(false)
  })

  it('applies them to every query it makes', () => {
    const client = makeQueryClient()
    const options = client.defaultQueryOptions({ queryKey: ['any'] })
    expect(options).toMatchObject({ refetchOnWindowFocus: false, retry: false, gcTime: 0, placeholderData: keepPreviousData })
  })

  it('makes a new client each time (one per browser tab, never shared between server requests)', () => {
    expect(makeQueryClient()).not.toBe(makeQueryClient())
  })
})
