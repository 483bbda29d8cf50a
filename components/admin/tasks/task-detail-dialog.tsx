'use client'

import { useAdminTask } from '@/lib/api-client/resources/admin-tasks'
import { formatDateTime } from '@/lib/format'
import { taskErrorLabel } from '@/lib/tasks/task-views'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { LoadFailed } from '@/components/ui/load-failed'
import { Loading } from '@/components/ui/spinner'
import { PENDING_REFRESH_MS } from '@/components/admin/shared/refresh'
import { taskTypeLabel } from '@/components/create/task-labels'
import { Facts, JsonBlock, LedgerRows, ParamsList, Section } from './task-detail-sections'
import { deliveredOf, ResultThumbs, TaskStatusBadge } from './task-status'

function priceText(snapshot: unknown): string {
  const s = (snapshot ?? {}) as { pricePerImage?: unknown; count?: unknown; durationSec?: unknown }
  if (typeof s.durationSec === 'number' && typeof s.pricePerImage === 'number') return `${s.pricePerImage} 积分（${s.durationSec} 秒视频）`
  return typeof s.pricePerImage === 'number' && typeof s.count === 'number' ? `${s.pricePerImage} 积分/张 × ${s.count} 张` : '-'
}

/** 详情: everything about one task — parameters, errors, attempts, backend answers, ledger rows, results. */
export function TaskDetailDialog({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const { data: task, isError, refetch } = useAdminTask(taskId, (query) => (query.state.data?.status === 'PENDING' ? PENDING_REFRESH_MS : false))

  return (
    <Dialog
      open
      title="任务详情"
      onClose={onClose}
      className="sm:max-w-3xl!"
      footer={
        <Button variant="secondary" onClick={onClose}>
          关闭
        </Button>
      }
    >
      {!task ? (
        isError ? (
          <LoadFailed onRetry={() => void refetch()} />
        ) : (
          <Loading />
        )
      ) : (
        <div className="space-y-5">
          <Facts
            items={[
              [
                '任务 ID',
                <span key="id" className="font-mono text-xs">
                  {task.id}
                </span>,
              ],
              ['用户', `${task.user.name}（@${task.user.username}）`],
              ['类型', taskTypeLabel(task.type)],
              ['模型', task.model.name],
              ['状态', <TaskStatusBadge key="status" task={task} />],
              ['推荐', task.isRecommended ? <Badge tone="brand">已推荐</Badge> : '否'],
              ['消耗积分', task.chargedPoints],
              ['计价', priceText(task.priceSnapshot)],
              ['尝试次数', `${task.attempts} / ${task.maxAttempts}`],
              ['上游任务 ID', task.upstreamId ? <span className="font-mono text-xs">{task.upstreamId}</span> : '-'],
              ['创建时间', formatDateTime(task.createdAt)],
              ['开始时间', formatDateTime(task.startedAt)],
              ['完成时间', formatDateTime(task.finishedAt)],
              ['截止时间', formatDateTime(task.deadlineAt)],
              ['退款时间', formatDateTime(task.refundedAt)],
              ['执行节点', task.leaseOwner ?? '-'],
            ]}
          />
          {(task.errorCode || task.errorMessage) && (
            <Section title="错误">
              <div className="space-y-1 rounded-xl bg-red-500/10 px-4 py-3 text-sm text-red-300 ring-1 ring-red-500/30">
                {task.errorCode && (
                  <div className="font-medium text-red-200" title={`错误代码 ${task.errorCode}`}>
                    {taskErrorLabel(task.errorCode)}
                  </div>
                )}
                {task.errorMessage && <div>{task.errorMessage}</div>}
              </div>
            </Section>
          )}
          <Section title="生成结果">
            <ResultThumbs results={deliveredOf(task)} size="lg" />
          </Section>
          <Section title="积分流水">
            <LedgerRows rows={task.ledger} />
          </Section>
          <Section title="参数">
            <ParamsList params={task.params} />
          </Section>
          <Section title="后端日志">
            <JsonBlock value={task.backendLog} />
          </Section>
        </div>
      )}
    </Dialog>
  )
}
