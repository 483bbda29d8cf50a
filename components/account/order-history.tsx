'use client'

import { useState } from 'react'
import { orderQueries, useCancelOrder, type OrderView } from '@/lib/api-client/resources/orders'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { formatCents, formatDateTime } from '@/lib/format'
import { attempt } from '@/lib/ui/use-action'
import { toast } from '@/lib/ui/toast-store'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Pagination } from '@/components/ui/pagination'
import { CHANNEL_LABELS, ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { OrderStatusBadge } from '@/components/payments/order-status-badge'
import { OrderProgressDialog } from '@/components/payments/recharge-dialog'

const NO_FILTERS = {}

/** 订单记录: my orders, newest first; a pending one can be continued (its QR again) or cancelled. */
export function OrderHistory() {
  const list = usePagedList({ filters: NO_FILTERS, pageSize: 10, query: orderQueries.list })
  const cancel = useCancelOrder()
  const [following, setFollowing] = useState<string | null>(null)

  const columns: Column<OrderView>[] = [
    { header: '时间', cell: (o) => formatDateTime(o.createdAt), className: 'text-zinc-400' },
    { header: '商品', cell: (o) => o.subject || ORDER_TYPE_LABELS[o.type], mobile: 'title' },
    { header: '金额', cell: (o) => `¥${formatCents(o.amount)}` },
    { header: '支付方式', cell: (o) => CHANNEL_LABELS[o.channel] },
    { header: '订单号', cell: (o) => o.outTradeNo, className: 'font-mono text-xs text-zinc-400' },
    { header: '状态', cell: (o) => <OrderStatusBadge status={o.status} /> },
    {
      header: '操作',
      mobile: 'actions',
      cell: (o) =>
        o.status === 'PENDING' ? (
          <div className="flex gap-1">
            <Button size="sm" variant="ghost" onClick={() => setFollowing(o.id)}>
              继续支付
            </Button>
            <Button
              size="sm"
              variant="ghost"
              loading={cancel.isPending && cancel.variables === o.id}
              disabled={cancel.isPending}
              onClick={() =>
                attempt(async () => {
                  const order = await cancel.mutateAsync(o.id)
                  // Paid before the cancel reached the provider: the order stands.
                  if (order.status === 'SUCCESS') toast.success('订单已支付，无需取消')
                  else toast.success('订单已取消')
                })
              }
            >
              取消
            </Button>
          </div>
        ) : (
          <span data-no-action className="text-zinc-600">
            -
          </span>
        ),
    },
  ]

  return (
    <div>
      <DataTable columns={columns} rows={list.rows} rowKey={(o) => o.id} isLoading={list.isLoading} isError={list.isError} empty="暂无订单" />
      {list.rows && list.total > 0 && <Pagination {...list.pager} />}
      <OrderProgressDialog orderId={following} onClose={() => setFollowing(null)} />
    </div>
  )
}
