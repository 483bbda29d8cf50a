'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import type { LedgerFeed, LedgerRow } from '@/lib/ledger/list-ledger'
import type { Json } from '../hooks'
import { api } from '../request'

export type LedgerRowJson = Json<LedgerRow>

export const ledgerUrls = { ledger: '/api/users/ledger' } as const

export const ledgerKeys = { all: ['ledger'] as const }

export const LEDGER_PAGE_SIZE = 20

/** The caller's own ledger, newest first, a cursor page at a time. */
export function useLedger() {
  return useInfiniteQuery({
    queryKey: ledgerKeys.all,
    queryFn: ({ pageParam }) => api.get<Json<LedgerFeed>>(ledgerUrls.ledger, { cursor: pageParam, limit: LEDGER_PAGE_SIZE }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  })
}
