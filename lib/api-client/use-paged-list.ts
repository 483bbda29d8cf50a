'use client'

import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { DEFAULT_PAGE_SIZE, type Page } from '@/lib/http/page'

/** A list's filters as the page holds them: text of inputs and selects, '' meaning "any". */
export type ListFilters = Record<string, string>

export type PagedListState<F extends ListFilters> = { page: number; pageSize: number; filters: F }

/** What the API is asked: page and pageSize (docs/PRODUCT.md §7.1) and only the filters that are set. */
export type ListParams<F extends ListFilters> = { page: number; pageSize: number } & Partial<F>

export function listParams<F extends ListFilters>({ page, pageSize, filters }: PagedListState<F>): ListParams<F> {
  const set = Object.entries(filters).filter(([, value]) => value.trim() !== '')
  return { page, pageSize, ...Object.fromEntries(set.map(([key, value]) => [key, value.trim()])) } as ListParams<F>
}

/** A search or a filter choice starts again from the first page (the same filters too, as a search button does). */
export function withFilters<F extends ListFilters>(state: PagedListState<F>, patch: Partial<F>): PagedListState<F> {
  const filters = { ...state.filters, ...patch }
  const same = Object.keys(filters).every((key) => filters[key] === state.filters[key])
  return same && state.page === 1 ? state : { ...state, page: 1, filters: same ? state.filters : filters }
}

/** A page number as the pager or a caller gives it: a whole number from 1 up. */
export function withPage<F extends ListFilters>(state: PagedListState<F>, page: number): PagedListState<F> {
  const next = Number.isFinite(page) ? Math.max(1, Math.floor(page)) : 1
  return next === state.page ? state : { ...state, page: next }
}

/** Two keys of one list that differ at most in the page: a new page may show the last one's rows while it loads, a new filter may not. */
export function onlyPageDiffers(a: QueryKey, b: QueryKey): boolean {
  const withoutPage = (key: QueryKey) => JSON.stringify(key, (name, value: unknown) => (name === 'page' ? undefined : value))
  return withoutPage(a) === withoutPage(b)
}

type Options<Row, F extends ListFilters, K extends QueryKey> = {
  filters: F
  pageSize?: number
  /** The resource's query for these params (lib/api-client/resources/*: `xQueries.list`), with any extras such as refetchInterval. */
  query: (params: ListParams<F>) => UseQueryOptions<Page<Row>, Error, Page<Row>, K>
}

/**
 * One paged, filtered list of the console (users, tasks, cards): its page, page size and
 * filters, the query for them, and the setters; `pager` goes to <Pagination/> as it is.
 */
export function usePagedList<Row, F extends ListFilters, K extends QueryKey>({
  filters: initialFilters,
  pageSize = DEFAULT_PAGE_SIZE,
  query,
}: Options<Row, F, K>) {
  const [state, setState] = useState<PagedListState<F>>({ page: 1, pageSize, filters: initialFilters })
  const params = listParams(state)
  const options = query(params)
  const result = useQuery({
    ...options,
    placeholderData: (previous, previousQuery) => (previousQuery && onlyPageDiffers(previousQuery.queryKey, options.queryKey) ? previous : undefined),
  })
  const total = result.data?.total ?? 0
  const setPage = useCallback((page: number) => setState((s) => withPage(s, page)), [])
  const setFilters = useCallback((patch: Partial<F>) => setState((s) => withFilters(s, patch)), [])
  const resetFilters = useCallback(() => setState((s) => withFilters(s, initialFilters)), [initialFilters])

  return {
    ...state,
    params,
    query: result,
    rows: result.data?.list,
    total,
    isLoading: result.isLoading,
    isError: result.isError,
    setPage,
    setFilters,
    resetFilters,
    pager: { page: state.page, pageSize: state.pageSize, total, onChange: setPage },
  }
}
