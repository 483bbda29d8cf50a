import { QueryClient, keepPreviousData } from '@tanstack/react-query'

/**
 * docs/PRODUCT.md §9: no refetch on focus, no retry, cache time 0, keep previous data while loading.
 * Query keys live with their resource (lib/api-client/resources/*.ts, each `xKeys.all` a prefix).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: false, gcTime: 0, placeholderData: keepPreviousData },
      mutations: { retry: false },
    },
  })
}
