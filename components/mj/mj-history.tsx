'use client'

import { useState } from 'react'
import { formatDateTime } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Badge, EmptyState } from '@/components/ui/card'
import { Pagination } from '@/components/ui/pagination'
import { LoadFailed } from '@/components/ui/load-failed'
import { Loading } from '@/components/ui/spinner'
import { TASK_STATUS_LABELS, TASK_STATUS_TONES } from '@/components/create/task-labels'
import { mjTaskTitle } from './mj-task-panel'
import { useMjTrees, type MjNodeJson } from '@/lib/api-client/resources/mj'

const PAGE_SIZE = 8

function Thumb({ task, size }: { task: MjNodeJson; size: string }) {
  const sources = Array.isArray(task.params.referenceImageUrls) ? (task.params.referenceImageUrls as string[]) : []
  const src = task.results[0]?.thumbUrl ?? task.previewUrl ?? sources[0]
  return (
    <span className={cn('flex shrink-0 items-center justify-center overflow-hidden rounded-lg bg-zinc-950 ring-1 ring-zinc-800', size)}>
      {src ? (
        <img src={src} alt="" className="h-full w-full object-cover" loading="lazy" />
      ) : (
        <span className="text-[10px] text-zinc-500">{task.status === 'PENDING' ? `${task.progress}%` : TASK_STATUS_LABELS[task.status]}</span>
      )}
    </span>
  )
}

/** A button's task and what came of it, indented under its parent. */
function Branch({ nodes, activeId, onOpen }: { nodes: MjNodeJson[]; activeId: string | null; onOpen: (id: string) => void }) {
  if (nodes.length === 0) return null
  return (
    <ul className="ml-5 space-y-1.5 border-l border-zinc-800 pl-3 pt-1.5">
      {nodes.map((node) => (
        <li key={node.id}>
          <button
            type="button"
            onClick={() => onOpen(node.id)}
            className={cn(
              'flex w-full items-center gap-2 rounded-lg p-1 text-left transition hover:bg-zinc-800/60',
              activeId === node.id && 'bg-zinc-800/80 ring-1 ring-brand-500/60',
            )}
          >
            <Thumb task={node} size="size-10" />
            <span className="min-w-0 flex-1 truncate text-xs text-zinc-300">{mjTaskTitle(node)}</span>
            <Badge tone={TASK_STATUS_TONES[node.status]}>{node.status === 'PENDING' ? `${node.progress}%` : TASK_STATUS_LABELS[node.status]}</Badge>
          </button>
          <Branch nodes={node.children} activeId={activeId} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  )
}

/** The user's Midjourney work as trees: each imagine (or blend, describe) with everything its buttons made. */
export function MjHistory({ activeId, onOpen }: { activeId: string | null; onOpen: (id: string) => void }) {
  const [page, setPage] = useState(1)
  const { data, isLoading, isError, refetch } = useMjTrees(page, PAGE_SIZE)

  return (
    <section>
      <h2 className="mb-3 text-lg font-medium text-white">我的 MJ 作品</h2>
      {isLoading && <Loading />}
      {isError && !data && <LoadFailed onRetry={() => void refetch()} />}
      {data?.list.length === 0 && <EmptyState>还没有 Midjourney 作品，写下提示词开始创作吧</EmptyState>}
      <div className="grid gap-3 md:grid-cols-2">
        {data?.list.map((root) => (
          <article key={root.id} className="rounded-xl bg-zinc-900/70 p-3 ring-1 ring-zinc-800">
            <button
              type="button"
              onClick={() => onOpen(root.id)}
              className={cn(
                'flex w-full items-start gap-3 rounded-lg p-1 text-left transition hover:bg-zinc-800/60',
                activeId === root.id && 'bg-zinc-800/80 ring-1 ring-brand-500/60',
              )}
            >
              <Thumb task={root} size="size-16" />
              <span className="min-w-0 flex-1 space-y-1">
                <span className="line-clamp-2 block text-sm text-zinc-200">{String(root.params.prompt || mjTaskTitle(root))}</span>
                <span className="flex items-center gap-2">
                  <Badge tone={TASK_STATUS_TONES[root.status]}>{root.status === 'PENDING' ? `${root.progress}%` : TASK_STATUS_LABELS[root.status]}</Badge>
                  <span className="text-[11px] text-zinc-500">
                    {mjTaskTitle(root)} · {formatDateTime(root.createdAt).slice(5, 16)}
                  </span>
                </span>
              </span>
            </button>
            <Branch nodes={root.children} activeId={activeId} onOpen={onOpen} />
          </article>
        ))}
      </div>
      {data && data.total > PAGE_SIZE && <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />}
    </section>
  )
}
