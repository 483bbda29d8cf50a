'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useProfile, type Json } from '@/lib/api-client/hooks'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { canManageUser, isAdmin } from '@/lib/auth/permissions'
import { formatCents, formatDateTime } from '@/lib/format'
import { DEFAULT_PAGE_SIZE, type Page } from '@/lib/http/pagination'
import { ROLE_LABELS } from '@/lib/users/role-labels'
import type { AdminUserRow } from '@/lib/users/user-views'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { Td } from '@/components/ui/table'
import { useRowActions } from '@/components/admin/shared/use-row-actions'
import { AdjustDialog } from './adjust-dialog'
import { UserFormDialog } from './user-form-dialog'

export type UserRow = Json<AdminUserRow>

/** /admin/user_mana: search, page through, create, edit and delete users. */
export function UserManager() {
  const [page, setPage] = useState(1)
  const [keywordInput, setKeywordInput] = useState('')
  const [keyword, setKeyword] = useState('')
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null)
  const [adjusting, setAdjusting] = useState<UserRow | null>(null)
  const { profile: me } = useProfile()
  const queryClient = useQueryClient()

  const params = { page, pageSize: DEFAULT_PAGE_SIZE, keyword }
  const { data, isLoading } = useQuery({
    queryKey: queryKeys.adminUsers(params),
    queryFn: () => api.get<Page<UserRow>>('/api/users', params),
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] })
  const { deleting, setDeleting, isDeleting, confirmDelete } = useRowActions<UserRow>('/api/admin/user', refresh)

  function search(e: FormEvent) {
    e.preventDefault()
    setPage(1)
    setKeyword(keywordInput.trim())
  }

  const columns = ['用户名', '昵称', '角色', '手机号', '积分', '余额（元）', '状态', '注册时间', '操作']
  return (
    <div>
      <PageTitle actions={<Button onClick={() => setEditing('new')}>新建用户</Button>}>用户管理</PageTitle>
      <form onSubmit={search} className="mb-4 flex max-w-md gap-2">
        <Input value={keywordInput} onChange={(e) => setKeywordInput(e.target.value)} placeholder="搜索用户名、昵称或手机号" aria-label="搜索用户" />
        <Button type="submit" variant="secondary">
          搜索
        </Button>
      </form>
      <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.list.length === 0} empty="没有找到用户">
        {data?.list.map((u) => {
          const canManage = me ? canManageUser(me.role, u.role) : false
          return (
            <tr key={u.id} className="hover:bg-zinc-900/50">
              <Td className="font-medium text-white">{u.username}</Td>
              <Td>{u.name}</Td>
              <Td>
                <Badge tone={u.role === 'ADMIN' ? 'brand' : u.role === 'MANAGER' ? 'amber' : 'zinc'}>{ROLE_LABELS[u.role]}</Badge>
              </Td>
              <Td>{u.mobile ?? '-'}</Td>
              <Td>{u.points}</Td>
              <Td>{formatCents(u.balance)}</Td>
              <Td>{u.bannedAt ? <Badge tone="red">已禁用</Badge> : <Badge tone="green">正常</Badge>}</Td>
              <Td className="text-zinc-400">{formatDateTime(u.createdAt)}</Td>
              <Td>
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
              </Td>
            </tr>
          )
        })}
      </DataTable>
      {data && <Pagination page={page} pageSize={DEFAULT_PAGE_SIZE} total={data.total} onChange={setPage} />}

      {editing && me && (
        <UserFormDialog
          actorRole={me.role}
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            await refresh()
          }}
        />
      )}
      {adjusting && (
        <AdjustDialog
          key={adjusting.id}
          user={adjusting}
          onClose={() => setAdjusting(null)}
          onSaved={async () => {
            setAdjusting(null)
            await refresh()
          }}
        />
      )}
      <ConfirmDialog open={Boolean(deleting)} title="删除用户" danger confirmText="删除" loading={isDeleting} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        确定删除用户 <span className="font-medium text-white">{deleting?.username}</span> 吗？此操作不可撤销。
      </ConfirmDialog>
    </div>
  )
}
