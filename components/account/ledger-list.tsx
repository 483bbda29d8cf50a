'use client'

import { useLedger, type LedgerRowJson } from '@/lib/api-client/resources/ledger'
import { formatCents, formatDateTime } from '@/lib/format'
import { LEDGER_ACCOUNT_LABELS, LEDGER_KIND_LABELS } from '@/lib/ledger/labels'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/data-table'

function amountText(row: LedgerRowJson): string {
  const sign = row.amount > 0 ? '+' : '-'
  return row.account === 'BALANCE' ? `${sign}¥${formatCents(Math.abs(row.amount))}` : `${sign}${Math.abs(row.amount)}`
}

function afterText(row: LedgerRowJson): string {
  return row.account === 'BALANCE' ? `¥${formatCents(row.balanceAfter)}` : String(row.balanceAfter)
}

// On a phone each row is a card headed by what happened; the change and the balance after stay.
const columns: Column<LedgerRowJson>[] = [
  { header: '时间', cell: (r) => formatDateTime(r.createdAt), className: 'text-zinc-400' },
  { header: '类型', cell: (r) => LEDGER_KIND_LABELS[r.kind], mobile: 'title' },
  { header: '账户', cell: (r) => LEDGER_ACCOUNT_LABELS[r.account] },
  { header: '变动', cell: (r) => <span className={cn('font-medium', r.amount > 0 ? 'text-emerald-400' : 'text-red-400')}>{amountText(r)}</span> },
  { header: '变动后', cell: (r) => afterText(r) },
  { header: '说明', cell: (r) => r.note ?? '-', className: 'max-w-64 truncate text-zinc-400' },
]

/** The user's own ledger: every change of points and balance, newest first. */
export function LedgerList() {
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = useLedger()
  const rows = data?.pages.flatMap((p) => p.list)

  return (
    <div>
      <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} isLoading={isLoading} isError={isError} empty="暂无收支记录" />
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
