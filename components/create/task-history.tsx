'use client'

import { useState } from 'react'
import { useMyTasks, type TaskJson } from '@/lib/api-client/resources/tasks'
import { formatDateTime } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Badge, EmptyState } from '@/components/ui/card'
import { LabelOptions, Select } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { LoadFailed } from '@/components/ui/load-failed'
import { Loading } from '@/components/ui/spinner'
import { ImageViewer } from '@/components/wall/image-viewer'
import { OwnResultPanel } from '@/components/wall/own-result-panel'
import { TASK_STATUS_LABELS, TASK_STATUS_TONES, TASK_TYPE_LABELS, stageText } from './task-labels'

const PAGE_SIZE = 12

/** The user's works: filters, live progress, and a way back to any of them. */
export function TaskHistory({
  types,
  onOpen,
  onActiveDeleted,
  activeId,
}: {
  types?: string[]
  onOpen: (task: TaskJson) => void
  /** The task the page shows (`activeId`) was deleted from the viewer: the page lets go of it. */
  onActiveDeleted?: () => void
  activeId?: string | null
}) {
  const [page, setPage] = useState(1)
  const [status, setStatus] = useState('')
  const [type, setType] = useState(types?.length === 1 ? types[0] : '')
  const { data, isLoading, isError, refetch } = useMyTasks({ page, pageSize: PAGE_SIZE, status, type })
  const [viewing, setViewing] = useState<{ id: string; index: number } | null>(null)
  const viewed = data?.list.find((t) => t.id === viewing?.id)

  return (
    <section>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-medium text-white">我的作品</h2>
        <div className="flex gap-2">
          {(!types || types.length > 1) && (
            <Select aria-label="类型" value={type} onChange={(e) => (setType(e.target.value), setPage(1))} className="w-32">
              <LabelOptions all="全部类型" labels={TASK_TYPE_LABELS} keys={types} />
            </Select>
          )}
          <Select aria-label="状态" value={status} onChange={(e) => (setStatus(e.target.value), setPage(1))} className="w-32">
            <LabelOptions all="全部状态" labels={TASK_STATUS_LABELS} />
          </Select>
        </div>
      </div>
      {isLoading && <Loading />}
      {isError && !data && <LoadFailed onRetry={() => void refetch()} />}
      {data?.list.length === 0 && <EmptyState>还没有作品，写下提示词开始创作吧</EmptyState>}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {data?.list.map((task) => (
          <button
            key={task.id}
            type="button"
            onClick={() => (onOpen(task), task.results.length > 0 && setViewing({ id: task.id, index: 0 }))}
            className={cn(
              'overflow-hidden rounded-xl bg-zinc-900 text-left ring-1 transition hover:ring-brand-500/70',
              activeId === task.id ? 'ring-brand-500' : 'ring-zinc-800',
            )}
          >
            <div className="flex aspect-square items-center justify-center bg-zinc-950">
              {task.videos?.[0] || task.results[0] ? (
                <img
                  src={task.videos?.[0]?.posterUrl ?? task.results[0]!.thumbUrl}
                  alt={String(task.params.prompt ?? '')}
                  className="h-full w-full object-cover"
                  loading="lazy"
                />
              ) : (
                <span className="px-3 text-center text-xs text-zinc-500">
                  {task.status === 'PENDING'
                    ? `${stageText(task.status, task.stage)} ${task.progress}%`
                    : (task.errorMessage ?? TASK_STATUS_LABELS[task.status])}
                </span>
              )}
            </div>
            <div className="space-y-1 p-2.5">
              <div className="line-clamp-1 text-xs text-zinc-300">{String(task.params.prompt ?? TASK_TYPE_LABELS[task.type])}</div>
              <div className="flex items-center justify-between gap-1">
                <Badge tone={TASK_STATUS_TONES[task.status]}>{TASK_STATUS_LABELS[task.status]}</Badge>
                <span className="text-[10px] text-zinc-500">{formatDateTime(task.createdAt).slice(5, 16)}</span>
              </div>
            </div>
          </button>
        ))}
      </div>
      {data && data.total > PAGE_SIZE && <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />}
      <ImageViewer
        slides={(viewed?.results ?? []).map((image, i) => ({
          key: image.url,
          src: image.url,
          width: image.width,
          height: image.height,
          alt: `生成结果 ${i + 1}`,
        }))}
        index={viewed && viewing ? viewing.index : -1}
        onIndexChange={(index) => viewing && setViewing({ ...viewing, index })}
        onClose={() => setViewing(null)}
        panel={(i) =>
          viewed ? <OwnResultPanel task={viewed} index={i} onDeleted={() => (setViewing(null), viewed.id === activeId && onActiveDeleted?.())} /> : null
        }
      />
    </section>
  )
}
