'use client'

import { useDisableCard, type CardRow } from '@/lib/api-client/resources/admin-cards'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/data-table'
import { CardStatusBadge } from './card-status'

const isAssignable = (card: CardRow) => card.status === 'SUCCESS' && !card.usedAt && !card.disabledAt && !card.holder && !card.exportedAt

/** The cards of one page: masked keys, who holds or used them, status; 分配 (ADMIN), 停用 and 启用 (ADMIN). */
export function CardTable({
  rows,
  isLoading,
  isError,
  canIssue,
  onAssign,
}: {
  rows: CardRow[] | undefined
  isLoading: boolean
  isError: boolean
  canIssue: boolean
  onAssign: (card: CardRow) => void
}) {
  const disable = useDisableCard()

  function toggleDisabled(card: CardRow) {
    return attempt(async () => {
      await disable.mutateAsync({ id: card.id, disabled: !card.disabledAt })
      toast.success(card.disabledAt ? '已启用' : '已停用')
    })
  }

  const columns: Column<CardRow>[] = [
    { header: '创建时间', cell: (c) => formatDateTime(c.createdAt), className: 'text-zinc-400' },
    { header: '卡号', cell: (c) => c.cardNo },
    { header: '卡密', cell: (c) => c.cardKey, className: 'font-mono', mobile: 'title' },
    { header: '领取人', cell: (c) => c.claimant?.name ?? '-' },
    { header: '使用时间', cell: (c) => (c.usedAt ? formatDateTime(c.usedAt) : '-'), className: 'text-zinc-400' },
    { header: '积分', cell: (c) => c.points },
    {
      header: '状态',
      cell: (c) => (
        <div className="flex flex-wrap items-center justify-end gap-2 sm:justify-start">
          <CardStatusBadge card={c} />
          {c.failReason && (
            <span className="max-w-56 truncate text-xs text-red-400" title={c.failReason}>
              {c.failReason}
            </span>
          )}
          {c.holder && !c.usedAt && <span className="text-xs text-zinc-500">{c.holder.name}</span>}
        </div>
      ),
    },
    {
      header: '操作',
      mobile: 'actions',
      cell: (c) => (
        <div className="flex gap-1">
          {canIssue && (
            <Button size="sm" variant="ghost" disabled={!isAssignable(c)} onClick={() => onAssign(c)}>
              分配
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            disabled={c.status !== 'SUCCESS' || Boolean(c.usedAt) || (Boolean(c.disabledAt) && !canIssue)}
            title={c.disabledAt && !canIssue ? '只有管理员可以重新启用卡密' : undefined}
            onClick={() => toggleDisabled(c)}
          >
            {c.disabledAt ? '启用' : '停用'}
          </Button>
        </div>
      ),
    },
  ]
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
      isLoading={isLoading}
      isError={isError}
      empty="暂无卡密"
      rowClassName="hover:bg-zinc-900/50"
    />
  )
}
