'use client'

import { useState } from 'react'
import { useAdminProducts, useDeleteProduct, useUpdateProduct, type AdminProduct } from '@/lib/api-client/resources/admin-products'
import { adminMembershipQueries, type AdminMember } from '@/lib/api-client/resources/admin-memberships'
import { PRODUCT_TYPES, type ProductType } from '@/lib/api-client/resources/products'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { formatCents, formatDateTime } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Switch } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { editDeleteColumn } from '@/components/admin/shared/edit-delete-column'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { PRODUCT_TYPE_LABELS } from '@/components/payments/labels'
import { productGives } from '@/components/payments/product-card'
import { ProductFormDialog } from './product-form-dialog'

type Tab = ProductType | 'MEMBERS'

function Members() {
  const [kind, setKind] = useState<'IMAGE' | 'CHAT'>('IMAGE')
  const list = usePagedList({ filters: { kind: 'IMAGE' }, query: adminMembershipQueries.list })
  const columns: Column<AdminMember>[] = [
    { header: '用户', cell: (m) => `${m.user.name}${m.user.username ? `（@${m.user.username}）` : ''}`, mobile: 'title' },
    { header: '套餐', cell: (m) => m.planName },
    { header: '到期时间', cell: (m) => formatDateTime(m.expiresAt) },
    {
      header: '权益',
      cell: (m) =>
        [
          m.dailyPoints ? `每日 ${m.dailyPoints} 积分` : '',
          m.discountPercent ? `生成优惠 ${m.discountPercent}%` : '',
          m.dailyMessages ? `每日 ${m.dailyMessages} 条对话` : '',
        ]
          .filter(Boolean)
          .join(' · ') || '-',
      className: 'text-zinc-400',
    },
  ]
  return (
    <div>
      <div className="mb-4 flex gap-2">
        {(['IMAGE', 'CHAT'] as const).map((k) => (
          <Button
            key={k}
            size="sm"
            variant={kind === k ? 'primary' : 'secondary'}
            onClick={() => {
              setKind(k)
              list.setFilters({ kind: k })
            }}
          >
            {k === 'IMAGE' ? '会员' : '对话会员'}
          </Button>
        ))}
      </div>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(m) => `${m.kind}-${m.user.id}`}
        isLoading={list.isLoading}
        isError={list.isError}
        empty="暂无有效会员"
      />
      {list.rows && <Pagination {...list.pager} />}
    </div>
  )
}

/** /admin/subscription_mana: what the site sells (recharge tiers, points packs, membership plans) and who is a member now. */
export function SubscriptionManager() {
  const { profile } = useProfile()
  const canWrite = profile ? isAdmin(profile.role) : false
  const [tab, setTab] = useState<Tab>('POINTS')
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null)
  const { data, isLoading, isError } = useAdminProducts()
  const remove = useDeleteProduct()
  const update = useUpdateProduct()
  const { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled } = useRowActions<AdminProduct>({
    remove: remove.mutateAsync,
    setEnabled: (id, enabled) => update.mutateAsync({ id, enabled }),
  })
  const rows = tab === 'MEMBERS' ? [] : data?.filter((p) => p.type === tab)

  const columns: Column<AdminProduct>[] = [
    { header: '名称', cell: (p) => p.name, className: 'font-medium text-white', mobile: 'title' },
    { header: '价格', cell: (p) => `¥${formatCents(p.price)}` },
    { header: '内容', cell: (p) => productGives(p).join(' · ') || '-', className: 'text-zinc-300' },
    { header: '说明', cell: (p) => p.description || '-', className: 'max-w-56 truncate text-zinc-400', mobile: 'hide' },
    { header: '排序', cell: (p) => p.sort, mobile: 'hide' },
    { header: '上架', cell: (p) => <Switch checked={p.enabled} disabled={!canWrite} onChange={() => toggleEnabled(p)} label={`上架 ${p.name}`} /> },
    ...(canWrite ? [editDeleteColumn<AdminProduct>({ onEdit: setEditing, onDelete: setDeleting })] : []),
  ]
  const tabs: Tab[] = [...PRODUCT_TYPES, 'MEMBERS']

  return (
    <div>
      <PageTitle actions={canWrite && tab !== 'MEMBERS' && <Button onClick={() => setEditing('new')}>新建{PRODUCT_TYPE_LABELS[tab]}</Button>}>
        套餐管理
      </PageTitle>
      <div role="tablist" aria-label="商品类型" className="mb-4 flex gap-1 overflow-x-auto rounded-xl bg-zinc-950/60 p-1 ring-1 ring-zinc-800 sm:w-fit">
        {tabs.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={cn('h-9 whitespace-nowrap rounded-lg px-4 text-sm transition', tab === t ? 'bg-zinc-800 text-white' : 'text-zinc-400 hover:text-white')}
          >
            {t === 'MEMBERS' ? '当前会员' : PRODUCT_TYPE_LABELS[t]}
          </button>
        ))}
      </div>
      {tab === 'MEMBERS' ? (
        <Members />
      ) : (
        <DataTable columns={columns} rows={rows} rowKey={(p) => p.id} isLoading={isLoading} isError={isError} empty={`暂无${PRODUCT_TYPE_LABELS[tab]}商品`} />
      )}
      {editing && tab !== 'MEMBERS' && <ProductFormDialog product={editing === 'new' ? null : editing} type={tab} onClose={() => setEditing(null)} />}
      <ConfirmDialog open={Boolean(deleting)} title="删除商品" danger loading={isDeleting} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        确定删除“{deleting?.name}”吗？已有订单不受影响。
      </ConfirmDialog>
    </div>
  )
}
