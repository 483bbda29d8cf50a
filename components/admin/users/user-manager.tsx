'use client'

import { useState, type FormEvent } from 'react'
import { adminUserQueries, useDeleteUser, type UserRow } from '@/lib/api-client/resources/admin-users'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { canManageUser, isAdmin } from '@/lib/auth/permissions'
import { formatCents, formatDateTime } from '@/lib/format'
import { ROLE_LABELS } from '@/lib/users/role-labels'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { AdjustDialog } from './adjust-dialog'
import { UserFormDialog } from './user-form-dialog'

export type { UserRow }

const NO_FILTERS = { keyword: '' }

/** /admin/user_mana: search, page through, create, edit and delete users. */
export function UserManager() {
  const [keywordInput, setKeywordInput] = useState('')
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null)
  const [adjusting, setAdjusting] = useState<UserRow | null>(null)
  const { profile: me } = useProfile()
  const list = usePagedList({ filters: NO_FILTERS, query: adminUserQueries.list })
  const deleteUser = useDeleteUser()
  const { deleting, setDeleting, isDeleting, confirmDelete } = useRowActions<UserRow>({ remove: deleteUser.mutateAsync })

  function search(e: FormEvent) {
    e.preventDefault()
    list.setFilters({ keyword: keywordInput.trim() })
  }

  const columns: Column<UserRow>[] = [
    { header: '用户名', cell: (u) => u.username, className: 'font-medium text-white', mobile: 'title' },
    { header: '昵称', cell: (u) => u.name },
    { header: '角色', cell: (u) => <Badge tone={u.role === 'ADMIN' ? 'brand' : u.role === 'MANAGER' ? 'amber' : 'zinc'}>{ROLE_LABELS[u.role]}</Badge> },
    { header: '手机号', cell: (u) => u.mobile ?? '-' },
    { header: '积分', cell: (u) => u.points },
    { header: '余额（元）', cell: (u) => formatCents(u.balance) },
    { header: '状态', cell: (u) => (u.bannedAt ? <Badge tone="red">已禁用</Badge> : <Badge tone="green">正常</Badge>) },
    { header: '注册时间', cell: (u) => formatDateTime(u.createdAt), className: 'text-zinc-400', mobile: 'hide' },
    {
      header: '操作',
      mobile: 'actions',
      cell: (u) => {
        const canManage = me ? canManageUser(me.role, u.role) : false
        return (
          <div className="flex gap-1">
            <Button size="sm" variant="ghost" disabled={!canManage} onClick={() => setEditing(u)}>
              编辑
            </Button>
            {me && isAdmin(me.role) && (
              <Button size="sm" variant="ghost" onClick={() => setAdjusting(u)}>
                调整
              </Button>
            )}
            <Button size="sm" variant="ghost" className="text-red-400" disabled={!canManage || u.id === me?.id} onClick={() => setDeleting(u)}>
              删除
            </Button>
          </div>
        )
      },
    },
  ]
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建用户</Button>}>用户管理</PageTitle>
      <form onSubmit={search} className="mb-4 flex max-w-md gap-2">
        <Input value={keywordInput} onChange={(e) => setKeywordInput(e.target.value)} placeholder="搜索用户名、昵称或手机号" aria-label="搜索用户" />
        <Button type="submit" variant="secondary">
          搜索
        </Button>
      </form>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(u) => u.id}
        isLoading={list.isLoading}
        isError={list.isError}
        empty="没有找到用户"
        rowClassName="hover:bg-zinc-900/50"
      />
      {list.rows && <Pagination {...list.pager} />}

      {editing && me && (
        <UserFormDialog actorRole={me.role} user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />
      )}
      {adjusting && <AdjustDialog key={adjusting.id} user={adjusting} onClose={() => setAdjusting(null)} onSaved={() => setAdjusting(null)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="删除用户"
        danger
        confirmText="删除"
        loading={isDeleting}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        确定删除用户 <span className="font-medium text-white">{deleting?.username}</span> 吗？此操作不可撤销。
      </ConfirmDialog>
    </div>
  )
}
