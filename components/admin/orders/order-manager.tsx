'use client'

import { useState } from 'react'
import { adminOrderQueries, type AdminOrder } from '@/lib/api-client/resources/admin-orders'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { PageTitle } from '@/components/ui/card'
import { Pagination } from '@/components/ui/pagination'
import { OrderDetailDialog } from './order-detail-dialog'
import { NO_ORDER_FILTERS, OrderFilters } from './order-filters'
import { OrderTable } from './order-table'

/** /admin/order_mana: every order with filters; 详情 shows the provider's side, ADMIN may mark paid or refund. */
export function OrderManager() {
  const { profile } = useProfile()
  const canWrite = profile ? isAdmin(profile.role) : false
  const list = usePagedList({ filters: NO_ORDER_FILTERS, query: adminOrderQueries.list })
  const [open, setOpen] = useState<AdminOrder | null>(null)
  return (
    <div>
      <PageTitle>订单管理</PageTitle>
      <OrderFilters value={list.filters} onChange={list.setFilters} reset={NO_ORDER_FILTERS} />
      <OrderTable rows={list.rows} isLoading={list.isLoading} isError={list.isError} onOpen={setOpen} />
      {list.rows && <Pagination {...list.pager} />}
      {open && <OrderDetailDialog orderId={open.id} canWrite={canWrite} onClose={() => setOpen(null)} />}
    </div>
  )
}
