'use client'

import { useState, type FormEvent } from 'react'
import { adminChargeRecordQueries } from '@/lib/api-client/resources/admin-charge-records'
import { adminOrderQueries, type AdminOrder } from '@/lib/api-client/resources/admin-orders'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useUserSearch, type UserRow } from '@/lib/api-client/resources/admin-users'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { formatCents } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Card, EmptyState, PageTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { Loading } from '@/components/ui/spinner'
import { OrderDetailDialog } from '@/components/admin/orders/order-detail-dialog'
import { OrderTable } from '@/components/admin/orders/order-table'
import { ChargeRecordTable } from './charge-record-table'

const NO_FILTERS = {}

function UserPicker({ onPick }: { onPick: (user: UserRow) => void }) {
  const [input, setInput] = useState('')
  const [keyword, setKeyword] = useState('')
  const found = useUserSearch(keyword, 10)

  function search(e: FormEvent) {
    e.preventDefault()
    setKeyword(input.trim())
  }

  return (
    <Card>
      <form onSubmit={search} className="flex flex-wrap gap-2">
        <Input aria-label="查找用户" value={input} onChange={(e) => setInput(e.target.value)} placeholder="用户名、昵称或手机号" className="w-64" />
        <Button type="submit" variant="secondary">
          查找
        </Button>
      </form>
      {keyword &&
        (found.isLoading ? (
          <Loading />
        ) : found.data?.list.length ? (
          <ul className="mt-4 divide-y divide-zinc-800">
            {found.data.list.map((u) => (
              <li key={u.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                <span className="truncate text-zinc-200">
                  {u.name} <span className="text-zinc-500">@{u.username}</span>
                </span>
                <Button size="sm" variant="ghost" onClick={() => onPick(u)}>
                  查看
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState>没有找到用户</EmptyState>
        ))}
    </Card>
  )
}

function UserRecords({ user }: { user: UserRow }) {
  const { profile } = useProfile()
  const canWrite = profile ? isAdmin(profile.role) : false
  const records = usePagedList({ filters: NO_FILTERS, pageSize: 10, query: (p) => adminChargeRecordQueries.list({ ...p, userId: user.id }) })
  const orders = usePagedList({ filters: NO_FILTERS, pageSize: 10, query: (p) => adminOrderQueries.list({ ...p, user: user.id }) })
  const [open, setOpen] = useState<AdminOrder | null>(null)
  return (
    <div className="space-y-8">
      <section>
        <h2 className="mb-3 text-lg font-medium text-white">充值记录</h2>
        <ChargeRecordTable rows={records.rows} isLoading={records.isLoading} isError={records.isError} canWrite={canWrite} withUser={false} />
        {records.rows && <Pagination {...records.pager} />}
      </section>
      <section>
        <h2 className="mb-3 text-lg font-medium text-white">订单</h2>
        <OrderTable rows={orders.rows} isLoading={orders.isLoading} isError={orders.isError} onOpen={setOpen} withUser={false} />
        {orders.rows && <Pagination {...orders.pager} />}
      </section>
      {open && <OrderDetailDialog orderId={open.id} canWrite={canWrite} onClose={() => setOpen(null)} />}
    </div>
  )
}

/** /admin/user_charge_record_mana: pick a user, see their charge records and orders. */
export function UserChargeRecords() {
  const [user, setUser] = useState<UserRow | null>(null)
  return (
    <div>
      <PageTitle
        actions={
          user && (
            <Button variant="secondary" onClick={() => setUser(null)}>
              换一个用户
            </Button>
          )
        }
      >
        用户充值记录
      </PageTitle>
      {user ? (
        <>
          <p className="mb-5 text-sm text-zinc-400">
            <span className="text-white">{user.name}</span>（@{user.username}） · 积分 {user.points} · 余额 ¥{formatCents(user.balance)}
          </p>
          <UserRecords key={user.id} user={user} />
        </>
      ) : (
        <UserPicker onPick={setUser} />
      )}
    </div>
  )
}
