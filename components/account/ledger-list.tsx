'use client'

import { useInfiniteQuery } from '@tanstack/react-query'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import type { Json } from '@/lib/api-client/hooks'
import { formatCents, formatDateTime } from '@/lib/format'
import { LEDGER_ACCOUNT_LABELS, LEDGER_KIND_LABELS } from '@/lib/ledger/labels'
import type { LedgerFeed, LedgerRow } from '@/lib/ledger/list-ledger'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { DataTable } from '@/components/ui/data-table'
import { Td } from '@/components/ui/table'

function amountText(row: Json<LedgerRow>): string {
  const sign = row.amount > 0 ? '+' : '-'
  return row.account === 'BALANCE' ? `${sign}¥${formatCents(Math.abs(row.amount))}` : `${sign}${Math.abs(row.amount)}`
}

function afterText(row: Json<LedgerRow>): string {
  return row.account === 'BALANCE' ? `¥${formatCents(row.balanceAfter)}` : String(row.balanceAfter)
}

/** The user's own ledger: every change of points and balance, newest first. */
export function LedgerList() {
  const { data, isLoading, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: queryKeys.ledger,
    queryFn: ({ pageParam }) => api.get<Json<LedgerFeed>>('/api/users/ledger', { cursor: pageParam, limit: 20 }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  })
  const rows = data?.pages.flatMap((p) => p.list) ?? []
  const columns = ['时间', '类型', '账户', '变动', '变动后', '说明']

  return (
    <div>
      <DataTable columns={columns} isLoading={isLoading} isEmpty={rows.length === 0} empty="暂无收支记录">
        {rows.map((row) => (
          <tr key={row.id}>
            <Td className="text-zinc-400">{formatDateTime(row.createdAt)}</Td>
            <Td>{LEDGER_KIND_LABELS[row.kind]}</Td>
            <Td>{LEDGER_ACCOUNT_LABELS[row.account]}</Td>
            <Td className={cn('font-medium', row.amount > 0 ? 'text-emerald-400' : 'text-red-400')}>{amountText(row)}</Td>
            <Td>{afterText(row)}</Td>
            <Td className="max-w-64 truncate text-zinc-400">{row.note ?? '-'}</Td>
          </tr>
        ))}
      </DataTable>
      {hasNextPage && (
        <div className="mt-4 text-center">
          <Button variant="secondary" loading={isFetchingNextPage} onClick={() => fetchNextPage()}>
            加载更多
          </Button>
        </div>
      )}
    </div>
  )
}
