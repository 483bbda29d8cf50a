'use client'

import Link from 'next/link'
import { inviteQueries, type CommissionRecord } from '@/lib/api-client/resources/invites'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { formatCents, formatDateTime } from '@/lib/format'
import { RequireUser } from '@/components/app/require-user'
import { Badge, PageTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Pagination } from '@/components/ui/pagination'
import { ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { commissionText } from './labels'

const NO_FILTERS = {}

function Records() {
  const list = usePagedList({ filters: NO_FILTERS, query: inviteQueries.records })
  const columns: Column<CommissionRecord>[] = [
    { header: '被邀请人', cell: (r) => r.invitee, mobile: 'title' },
    { header: '订单类型', cell: (r) => ORDER_TYPE_LABELS[r.orderType as keyof typeof ORDER_TYPE_LABELS] ?? r.orderType },
    { header: '订单金额', cell: (r) => `¥${formatCents(r.orderAmount)}` },
    {
      header: '佣金',
      cell: (r) => (
        <span className="inline-flex items-center gap-2">
          <span className={r.status === 'SUCCESS' ? 'text-emerald-400' : 'text-zinc-500 line-through'}>{commissionText(r.account, r.amount)}</span>
          {r.status !== 'SUCCESS' && <Badge>已收回</Badge>}
        </span>
      ),
    },
    { header: '时间', cell: (r) => formatDateTime(r.createdAt), className: 'text-zinc-400' },
  ]
  return (
    <>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        isLoading={list.isLoading}
        isError={list.isError}
        empty="还没有佣金记录，快去邀请好友吧"
      />
      {list.rows && <Pagination {...list.pager} />}
    </>
  )
}

/** /my/invite_charge_record: the caller's commission records. */
export function CommissionRecordsView() {
  return (
    <RequireUser>
      {() => (
        <div>
          <PageTitle
            actions={
              <Link href="/my/invite" className="text-sm text-brand-400 hover:underline">
                返回邀请好友
              </Link>
            }
          >
            佣金记录
          </PageTitle>
          <Records />
        </div>
      )}
    </RequireUser>
  )
}
