'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useState } from 'react'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import { formatDateTime } from '@/lib/format'
import { DEFAULT_PAGE_SIZE, type Page } from '@/lib/http/pagination'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable } from '@/components/ui/data-table'
import { Pagination } from '@/components/ui/pagination'
import { Td } from '@/components/ui/table'
import { PENDING_REFRESH_MS } from '@/components/admin/cards/card-manager'
import { TASK_TYPE_LABELS, taskTypeLabel } from '@/components/create/task-labels'
import { TaskDetailDialog } from './task-detail-dialog'
import { NO_TASK_FILTERS, TaskFilters, type TaskFilterValues } from './task-filters'
import { ResultThumbs, TaskStatusBadge, type TaskRow } from './task-status'

/** The API's date range is [from, to): the picked days are whole local days, both included. */
const dayStart = (day: string) => (day ? dayjs(day).startOf('day').toISOString() : undefined)
const dayAfter = (day: string) => (day ? dayjs(day).startOf('day').add(1, 'day').toISOString() : undefined)

/** /admin/task_mana: every generation task, filtered and paged; details, cancel with refund, recommend. */
export function TaskManager() {
  const [page, setPage] = useState(1)
  const [filters, setFilters] = useState<TaskFilterValues>(NO_TASK_FILTERS)
  const [viewing, setViewing] = useState<string | null>(null)
  const [canceling, setCanceling] = useState<TaskRow | null>(null)
  const [isCanceling, runCancel] = useAction()
  const [busyId, setBusyId] = useState<string | null>(null)
  const queryClient = useQueryClient()

  const params = { page, pageSize: DEFAULT_PAGE_SIZE, type: filters.type, status: filters.status, user: filters.user, from: dayStart(filters.from), to: dayAfter(filters.to) }
  const { data, isLoading } = useQuery({
    queryKey: queryKeys.adminTasks(params),
    queryFn: () => api.get<Page<TaskRow>>('/api/admin/tasks', params),
    refetchInterval: (query) => (query.state.data?.list.some((t) => t.status === 'PENDING') ? PENDING_REFRESH_MS : false),
  })
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['admin', 'tasks'] }), queryClient.invalidateQueries({ queryKey: ['admin', 'task'] })])

  async function confirmCancel() {
    if (!canceling) return
    await runCancel(async () => {
      await api.post(`/api/admin/tasks/${canceling.id}/cancel`)
      toast.success('任务已取消，积分已退还')
      setCanceling(null)
      await refresh()
    })
  }

  async function toggleRecommended(task: TaskRow) {
    setBusyId(task.id)
    await attempt(async () => {
      await api.post(`/api/admin/tasks/${task.isRecommended ? 'un_recommend' : 'recommend'}/${task.id}`)
      toast.success(task.isRecommended ? '已取消推荐' : '已推荐到作品墙')
      await refresh()
    })
    setBusyId(null)
  }

  const columns = ['创建时间', '用户', '类型 / 模型', '状态', '消耗积分', '结果', '推荐', '操作']
  return (
    <div>
      <PageTitle>任务管理</PageTitle>
      <TaskFilters value={filters} onChange={(next) => (setFilters(next), setPage(1))} />
      <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.list.length === 0} empty="没有找到任务">
        {data?.list.map((t) => (
          <tr key={t.id} className="hover:bg-zinc-900/50">
            <Td className="text-zinc-400">{formatDateTime(t.createdAt)}</Td>
            <Td>
              <div className="text-white">{t.user.name}</div>
              <div className="text-xs text-zinc-500">@{t.user.username}</div>
            </Td>
            <Td>
              <div>{taskTypeLabel(t.type)}</div>
              <div className="max-w-40 truncate text-xs text-zinc-500" title={t.model.name}>
                {t.model.name}
              </div>
            </Td>
            <Td>
              <TaskStatusBadge task={t} />
              {t.status === 'FAIL' && t.errorMessage && (
                <div className="mt-1 max-w-56 truncate text-xs text-red-400" title={t.errorMessage}>
                  {t.errorMessage}
                </div>
              )}
            </Td>
            <Td>
              {t.chargedPoints}
              {t.refundedAt && <div className="text-xs text-zinc-500">已退还</div>}
            </Td>
            <Td>
              <ResultThumbs results={t.results} />
            </Td>
            <Td>{t.isRecommended ? <Badge tone="brand">已推荐</Badge> : <span className="text-zinc-500">-</span>}</Td>
            <Td>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => setViewing(t.id)}>
                  详情
                </Button>
                <Button size="sm" variant="ghost" className="text-red-400" disabled={t.status !== 'PENDING'} onClick={() => setCanceling(t)}>
                  取消
                </Button>
                <Button size="sm" variant="ghost" disabled={t.status !== 'SUCCESS' && !t.isRecommended} loading={busyId === t.id} onClick={() => toggleRecommended(t)}>
                  {t.isRecommended ? '取消推荐' : '推荐'}
                </Button>
              </div>
            </Td>
          </tr>
        ))}
      </DataTable>
      {data && <Pagination page={page} pageSize={DEFAULT_PAGE_SIZE} total={data.total} onChange={setPage} />}

      {viewing && <TaskDetailDialog taskId={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog open={Boolean(canceling)} title="取消任务" danger confirmText="取消任务" loading={isCanceling} onConfirm={confirmCancel} onClose={() => setCanceling(null)}>
        确定取消 <span className="font-medium text-white">{canceling?.user.name}</span> 的这个{canceling ? (TASK_TYPE_LABELS[canceling.type] ?? '') : ''}任务吗？已扣除的 {canceling?.chargedPoints ?? 0} 积分会全额退还。
      </ConfirmDialog>
    </div>
  )
}
