'use client'

import dayjs from 'dayjs'
import { useState } from 'react'
import { adminTaskQueries, useCancelAdminTask, useRecommendTask, type AdminTaskListParams } from '@/lib/api-client/resources/admin-tasks'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Badge, PageTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Pagination } from '@/components/ui/pagination'
import { PENDING_REFRESH_MS } from '@/components/admin/shared/refresh'
import { TASK_TYPE_LABELS, taskTypeLabel } from '@/components/create/task-labels'
import { TaskDetailDialog } from './task-detail-dialog'
import { NO_TASK_FILTERS, TaskFilters } from './task-filters'
import { deliveredOf, ResultThumbs, TaskStatusBadge, type TaskRow } from './task-status'

/** The API's date range is [from, to): the picked days are whole local days, both included. */
const dayStart = (day?: string) => (day ? dayjs(day).startOf('day').toISOString() : undefined)
const dayAfter = (day?: string) => (day ? dayjs(day).startOf('day').add(1, 'day').toISOString() : undefined)

/** The list as the API takes it (days as instants), refreshed while a task on the page runs. */
const tasksQuery = ({ from, to, ...rest }: AdminTaskListParams) => ({
  ...adminTaskQueries.list({ ...rest, from: dayStart(from), to: dayAfter(to) }),
  refetchInterval: (query: { state: { data?: { list: TaskRow[] } } }) =>
    query.state.data?.list.some((t) => t.status === 'PENDING') ? PENDING_REFRESH_MS : false,
})

/** /admin/task_mana: every generation task, filtered and paged; details, cancel with refund, recommend. */
export function TaskManager() {
  const list = usePagedList({ filters: NO_TASK_FILTERS, query: tasksQuery })
  const [viewing, setViewing] = useState<string | null>(null)
  const [canceling, setCanceling] = useState<TaskRow | null>(null)
  const [isCanceling, runCancel] = useAction()
  const [busyId, setBusyId] = useState<string | null>(null)
  const cancelTask = useCancelAdminTask()
  const recommend = useRecommendTask()

  async function confirmCancel() {
    if (!canceling) return
    await runCancel(async () => {
      await cancelTask.mutateAsync(canceling.id)
      toast.success('任务已取消，积分已退还')
      setCanceling(null)
    })
  }

  async function toggleRecommended(task: TaskRow) {
    setBusyId(task.id)
    await attempt(async () => {
      await recommend.mutateAsync({ id: task.id, on: !task.isRecommended })
      toast.success(task.isRecommended ? '已取消推荐' : '已推荐到作品墙')
    })
    setBusyId(null)
  }

  const columns: Column<TaskRow>[] = [
    { header: '创建时间', cell: (t) => formatDateTime(t.createdAt), className: 'text-zinc-400' },
    {
      header: '用户',
      mobile: 'title',
      cell: (t) => (
        <>
          <div className="text-white">{t.user.name}</div>
          <div className="text-xs text-zinc-500">@{t.user.username}</div>
        </>
      ),
    },
    {
      header: '类型 / 模型',
      cell: (t) => (
        <>
          <div>{taskTypeLabel(t.type)}</div>
          <div className="max-w-40 truncate text-xs text-zinc-500" title={t.model.name}>
            {t.model.name}
          </div>
        </>
      ),
    },
    {
      header: '状态',
      cell: (t) => (
        <>
          <TaskStatusBadge task={t} />
          {t.status === 'FAIL' && t.errorMessage && (
            <div className="mt-1 max-w-56 truncate text-xs text-red-400" title={t.errorMessage}>
              {t.errorMessage}
            </div>
          )}
        </>
      ),
    },
    {
      header: '消耗积分',
      cell: (t) => (
        <>
          {t.chargedPoints}
          {t.refundedAt && <div className="text-xs text-zinc-500">已退还</div>}
        </>
      ),
    },
    { header: '结果', cell: (t) => <ResultThumbs results={deliveredOf(t)} /> },
    { header: '推荐', cell: (t) => (t.isRecommended ? <Badge tone="brand">已推荐</Badge> : <span className="text-zinc-500">-</span>), mobile: 'hide' },
    {
      header: '操作',
      mobile: 'actions',
      cell: (t) => (
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => setViewing(t.id)}>
            详情
          </Button>
          <Button size="sm" variant="ghost" className="text-red-400" disabled={t.status !== 'PENDING'} onClick={() => setCanceling(t)}>
            取消
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={t.status !== 'SUCCESS' && !t.isRecommended}
            loading={busyId === t.id}
            onClick={() => toggleRecommended(t)}
          >
            {t.isRecommended ? '取消推荐' : '推荐'}
          </Button>
        </div>
      ),
    },
  ]
  return (
    <div>
      <PageTitle>任务管理</PageTitle>
      <TaskFilters value={list.filters} onChange={list.setFilters} />
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(t) => t.id}
        isLoading={list.isLoading}
        isError={list.isError}
        empty="没有找到任务"
        rowClassName="hover:bg-zinc-900/50"
      />
      {list.rows && <Pagination {...list.pager} />}

      {viewing && <TaskDetailDialog taskId={viewing} onClose={() => setViewing(null)} />}
      <ConfirmDialog
        open={Boolean(canceling)}
        title="取消任务"
        danger
        confirmText="取消任务"
        loading={isCanceling}
        onConfirm={confirmCancel}
        onClose={() => setCanceling(null)}
      >
        确定取消 <span className="font-medium text-white">{canceling?.user.name}</span> 的这个{canceling ? (TASK_TYPE_LABELS[canceling.type] ?? '') : ''}
        任务吗？已扣除的 {canceling?.chargedPoints ?? 0} 积分会全额退还。
      </ConfirmDialog>
    </div>
  )
}
