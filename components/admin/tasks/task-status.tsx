import type { AdminTaskDetail, AdminTaskJson } from '@/lib/api-client/resources/admin-tasks'
import { Badge } from '@/components/ui/card'
import { TASK_STATUS_LABELS, TASK_STATUS_TONES, stageText } from '@/components/create/task-labels'

export type TaskRow = AdminTaskJson
export type TaskDetail = AdminTaskDetail

/** 进行中 / 成功 / 失败 / 已取消; a pending task also says where it is and how far along. */
export function TaskStatusBadge({ task }: { task: Pick<TaskRow, 'status' | 'stage' | 'progress'> }) {
  return (
    <span className="inline-flex items-center gap-2">
      <Badge tone={TASK_STATUS_TONES[task.status]}>{TASK_STATUS_LABELS[task.status] ?? task.status}</Badge>
      {task.status === 'PENDING' && (
        <span className="text-xs text-zinc-400">
          {stageText(task.status, task.stage)} {task.progress}%
        </span>
      )}
    </span>
  )
}

/** What a task delivered, as thumbnails: its images, or a clip's poster opening the clip. */
export function deliveredOf(task: Pick<TaskRow, 'results' | 'videos'>): TaskRow['results'] {
  const clips = (task.videos ?? []).map((v) => ({ url: v.url, thumbUrl: v.posterUrl, width: v.width ?? 0, height: v.height ?? 0, seed: null }))
  return [...task.results, ...clips]
}

/** The results' thumbnails, each opening the full image. */
export function ResultThumbs({ results, size = 'sm' }: { results: TaskRow['results']; size?: 'sm' | 'lg' }) {
  if (!results.length) return <span className="text-zinc-500">-</span>
  return (
    <div className="flex flex-wrap gap-1.5">
      {results.map((r, i) => (
        <a
          key={r.url}
          href={r.url}
          target="_blank"
          rel="noreferrer"
          title={`查看原图 ${i + 1}（${r.width}×${r.height}）`}
          className="block overflow-hidden rounded-md ring-1 ring-zinc-700 hover:ring-brand-400"
        >
          <img src={r.thumbUrl} alt={`结果 ${i + 1}`} loading="lazy" className={size === 'lg' ? 'h-32 w-auto' : 'size-10 object-cover'} />
        </a>
      ))}
    </div>
  )
}
