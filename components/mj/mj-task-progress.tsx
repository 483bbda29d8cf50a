import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { Spinner } from '@/components/ui/spinner'
import { WaitingNote } from '@/components/create/waiting-note'

/** The shape the picture will have (the requested --ar), so the preview does not jump when it arrives. */
function frameRatio(aspectRatio: string | undefined): string {
  const [w = 0, h = 0] = (aspectRatio ?? '').split(':').map(Number)
  return w > 0 && h > 0 ? `${w} / ${h}` : '1 / 1'
}

/** A running task: why it waits, the progress bar, and the proxy's preview in the final frame. */
export function MjTaskProgress({ task, aspectRatio }: { task: TaskJson; aspectRatio: string | undefined }) {
  return (
    <div className="space-y-3">
      <WaitingNote note={task.waitingNote} />
      <div
        className="h-2 overflow-hidden rounded-full bg-zinc-800"
        role="progressbar"
        aria-label="生成进度"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={task.progress}
      >
        <div className="h-full rounded-full bg-gradient-to-r from-brand-500 to-accent-400 transition-all" style={{ width: `${Math.max(3, task.progress)}%` }} />
      </div>
      <div
        className="relative flex max-h-[60vh] items-center justify-center overflow-hidden rounded-xl bg-zinc-950 ring-1 ring-zinc-800"
        style={{ aspectRatio: frameRatio(aspectRatio) }}
      >
        {task.previewUrl ? (
          <img src={task.previewUrl} alt="生成预览" className="h-full w-full object-contain" />
        ) : (
          <span className="px-6 text-center text-sm text-zinc-500">{task.stage === 'QUEUED' ? '排队等待 Midjourney…' : '等待 Midjourney 开始绘制…'}</span>
        )}
        <span className="absolute bottom-2 right-2 flex items-center gap-1.5 rounded-md bg-black/60 px-2 py-1 text-xs text-white backdrop-blur">
          <Spinner className="size-3.5" /> {task.progress}%
        </span>
      </div>
    </div>
  )
}
