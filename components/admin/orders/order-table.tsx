'use client'

import type { AdminOrder } from '@/lib/api-client/resources/admin-orders'
import { formatCents, formatDateTime } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { CHANNEL_LABELS, ORDER_TYPE_LABELS, TRADE_TYPE_LABELS } from '@/components/payments/labels'
import { OrderStatusBadge } from '@/components/payments/order-status-badge'

export function channelText(o: Pick<AdminOrder, 'channel' | 'tradeType' | 'alipayMethod'>): string {
  const way = o.tradeType ?? o.alipayMethod
  return way ? `${CHANNEL_LABELS[o.channel]}（${TRADE_TYPE_LABELS[way] ?? way}）` : CHANNEL_LABELS[o.channel]
}

/** Orders of one page: number, user, what, amount, channel, status (with a flag when something did not match), 详情. */
export function OrderTable({
  rows,
  isLoading,
  isError,
  onOpen,
  withUser = true,
}: {
  rows: AdminOrder[] | undefined
  isLoading: boolean
  isError: boolean
  onOpen: (order: AdminOrder) => void
  withUser?: boolean
}) {
  const columns: Column<AdminOrder>[] = [
    { header: '创建时间', cell: (o) => formatDateTime(o.createdAt), className: 'text-zinc-400' },
    { header: '订单号', cell: (o) => o.outTradeNo, className: 'font-mono text-xs', mobile: 'title' },
    ...(withUser ? [{ header: '用户', cell: (o: AdminOrder) => `${o.user.name}${o.user.username ? `（@${o.user.username}）` : ''}` }] : []),
    { header: '商品', cell: (o) => o.subject || ORDER_TYPE_LABELS[o.type] },
    { header: '金额', cell: (o) => `¥${formatCents(o.amount)}` },
    { header: '渠道', cell: channelText },
    {
      header: '状态',
      cell: (o) => (
        <div className="flex flex-wrap items-center justify-end gap-1.5 sm:justify-start">
          <OrderStatusBadge status={o.status} />
          {o.refundedAt && <Badge tone="zinc">已退款</Badge>}
          {o.flag && (
            <span title={o.flag}>
              <Badge tone="red">异常</Badge>
            </span>
          )}
        </div>
      ),
    },
    {
      header: '操作',
      mobile: 'actions',
      cell: (o) => (
        <Button size="sm" variant="ghost" onClick={() => onOpen(o)}>
          详情
        </Button>
      ),
    },
  ]
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(o) => o.id}
      isLoading={isLoading}
      isError={isError}
      empty="暂无订单"
      rowClassName="hover:bg-zinc-900/50"
    />
  )
}
