'use client'

import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { TaskFailure } from '@/components/create/task-failure'
import { TaskStatusBar } from '@/components/create/task-status-bar'
import { useTask } from '@/components/create/use-task'
import { WaitingNote } from '@/components/create/waiting-note'
import { PublishControls } from '@/components/wall/publish-controls'

/**
 * The clip being made: progress (minutes: the page may be closed, the task stays in 我的作品),
 * then the player with its poster, download, 做同款 (the form filled with its settings) and
 * 公开到作品墙;
 * or the error, with 重新生成.
 */
export function VideoResult({ taskId, onNewTask, onReuse }: { taskId: string | null; onNewTask: (id: string) => void; onReuse: (task: TaskJson) => void }) {
  const { data: task } = useTask(taskId)

  if (!taskId || !task) {
    return (
      <Card className="flex aspect-video items-center justify-center text-center text-sm text-zinc-500">
        <p>生成的视频会显示在这里</p>
      </Card>
    )
  }
  const video = task.videos[0]

  return (
    <Card className="space-y-4">
      <TaskStatusBar task={task} />
      {task.status === 'PENDING' && (
        <div className="space-y-3">
          <WaitingNote note={task.waitingNote} />
          <div className="flex aspect-video items-center justify-center rounded-xl bg-zinc-950 ring-1 ring-zinc-800">
            <Spinner className="size-6" />
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-zinc-800" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={task.progress}>
            <div
              className="h-full rounded-full bg-gradient-to-r from-brand-500 to-accent-400 transition-all"
              style={{ width: `${Math.max(3, task.progress)}%` }}
            />
          </div>
          <p className="text-xs text-zinc-500">{task.progress}% · 视频生成通常需要几分钟，可以关闭页面，稍后在下方“我的作品”中查看</p>
        </div>
      )}
      {task.status === 'SUCCESS' && video && (
        <>
          <video
            key={video.url}
            src={video.url}
            poster={video.posterUrl}
            controls
            playsInline
            preload="metadata"
            width={video.width ?? undefined}
            height={video.height ?? undefined}
            style={video.width && video.height ? { aspectRatio: `${video.width} / ${video.height}` } : undefined}
            className="h-auto max-h-[70vh] w-full rounded-xl bg-black object-contain ring-1 ring-zinc-800"
            data-testid="video-player"
          />
          <div className="flex flex-wrap items-center gap-2">
            <a
              href={video.downloadUrl}
              download={`${task.id}-1.mp4`}
              className="inline-flex h-8 items-center rounded-lg bg-zinc-800 px-3 text-sm text-white transition hover:bg-zinc-700"
            >
              下载
            </a>
            <Button size="sm" variant="secondary" onClick={() => onReuse(task)}>
              做同款
            </Button>
            <PublishControls task={task} index={0} />
            <span className="text-xs text-zinc-500">
              {video.durationSec ? `${Math.round(video.durationSec)} 秒` : ''}
              {video.width && video.height ? ` · ${video.width}×${video.height}` : ''}
            </span>
          </div>
        </>
      )}
      {(task.status === 'FAIL' || task.status === 'CANCELED') && <TaskFailure task={task} onNewTask={onNewTask} />}
    </Card>
  )
}
