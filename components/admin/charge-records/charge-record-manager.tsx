'use client'

import { adminChargeRecordQueries } from '@/lib/api-client/resources/admin-charge-records'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList, type ListParams } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { PageTitle } from '@/components/ui/card'
import { Pagination } from '@/components/ui/pagination'
import { NO_ORDER_FILTERS, OrderFilters, type OrderFilterValues } from '@/components/admin/orders/order-filters'
import { ChargeRecordTable } from './charge-record-table'

/** The user box holds a user id here (the API filters charge records by userId). */
const chargeQuery = ({ user, ...rest }: ListParams<OrderFilterValues>) => adminChargeRecordQueries.list({ ...rest, ...(user ? { userId: user } : {}) })

/** /admin/charge_record: every charge record with filters; ADMIN may change a record's status. */
export function ChargeRecordManager() {
  const { profile } = useProfile()
  const list = usePagedList({ filters: NO_ORDER_FILTERS, query: chargeQuery })
  return (
    <div>
      <PageTitle>充值记录</PageTitle>
      <OrderFilters value={list.filters} onChange={list.setFilters} reset={NO_ORDER_FILTERS} userPlaceholder="用户 ID" />
      <ChargeRecordTable rows={list.rows} isLoading={list.isLoading} isError={list.isError} canWrite={profile ? isAdmin(profile.role) : false} />
      {list.rows && <Pagination {...list.pager} />}
    </div>
  )
}
