'use client'

import { useQueryClient } from '@tanstack/react-query'
import { queryKeys } from '@/lib/api-client/query-client'
import { classifyCustomId } from '@/lib/mj/actions'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { WaitingNote } from '@/components/create/waiting-note'
import { stageText } from '@/components/create/task-labels'
import { cancelTask, useSubmitTask, useTask, type TaskJson } from '@/components/create/use-task'
import { MjButtons, MjDescribed } from './mj-buttons'
import { refreshMj, usePressButton } from './use-mj'

/** What a task was: its button's name, or the kind of submission. */
export function mjTaskTitle(task: Pick<TaskJson, 'action' | 'params'>): string {
  if (task.action === 'blend') return '混图'
  if (task.action === 'describe') return '识图'
  if (task.action && task.action !== 'imagine') return classifyCustomId(task.action)?.label ?? '操作'
  return '文生图'
}

/** The shape the picture will have (the requested --ar), so the preview does not jump when it arrives. */
function frameRatio(aspectRatio: string | undefined): string {
  const [w, h] = (aspectRatio ?? '').split(':').map(Number)
  return w > 0 && h > 0 ? `${w} / ${h}` : '1 / 1'
}

/** The fields a new submission takes, without what the server derived (final prompt, translation ...). */
const SUBMITTED_FIELDS = ['mjAction', 'prompt', 'aspectRatio', 'version', 'niji', 'stylize', 'chaos', 'quality', 'speed', 'rawParams', 'referenceImageIds', 'dimensions']

/** The current Midjourney task: live progress with the preview, then the result, its prompts and its buttons. */
export function MjTaskPanel({ taskId, onOpen, onUsePrompt }: { taskId: string | null; onOpen: (id: string) => void; onUsePrompt: (prompt: string) => void }) {
  const { data: task } = useTask(taskId)
  const queryClient = useQueryClient()
  const submit = useSubmitTask()
  const press = usePressButton()
  const [busy, run] = useAction()

  if (!taskId || !task) {
    return (
      <Card className="flex min-h-80 flex-col items-center justify-center gap-2 text-center text-sm text-zinc-500">
        <p>生成的四宫格会显示在这里</p>
        <p className="text-xs text-zinc-600">完成后可放大（U）、变体（V）、重新生成（🔄），每一步都会记录在下方的作品树里</p>
      </Card>
    )
  }

  const params = task.params as Record<string, string | undefined>
  const retry = () =>
    run(async () => {
      const next = task.parentId && params.customId
        ? await press(task.parentId, { customId: params.customId, ...(params.modalPrompt ? { prompt: params.modalPrompt } : {}), ...(params.maskImageId ? { maskImageId: params.maskImageId } : {}) })
        : await submit({ type: task.type, modelId: task.model.id, params: Object.fromEntries(Object.entries(task.params).filter(([k]) => SUBMITTED_FIELDS.includes(k))) })
      await refreshMj(queryClient)
      onOpen(next.id)
    })
  const cancel = () =>
    run(async () => {
      await cancelTask(task.id)
      toast.success('已取消，积分已退还')
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.task(task.id) }), refreshMj(queryClient)])
    })
  const described = Array.isArray(task.params.describedPrompts) ? (task.params.describedPrompts as string[]) : []
  const sources = Array.isArray(task.params.referenceImageUrls) ? (task.params.referenceImageUrls as string[]) : []

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2 text-sm">
          {task.parentId && (
            <button type="button" onClick={() => onOpen(task.parentId!)} className="shrink-0 rounded-md px-1.5 py-0.5 text-zinc-400 ring-1 ring-zinc-700 transition hover:text-white">
              ← 上一步
            </button>
          )}
          <span className="truncate font-medium text-white">{mjTaskTitle(task)}</span>
          <span className="text-zinc-500">·</span>
          <span data-testid="task-status" className="shrink-0 text-zinc-300">
            {stageText(task.status, task.stage, task.queuePosition, task.progress)}
          </span>
        </div>
        {task.status === 'PENDING' && (
          <Button size="sm" variant="ghost" loading={busy} onClick={cancel}>
            取消
          </Button>
        )}
      </div>

      {task.status === 'PENDING' && (
        <div className="space-y-3">
          <WaitingNote note={task.waitingNote} />
          <div className="h-2 overflow-hidden rounded-full bg-zinc-800" role="progressbar" aria-label="生成进度" aria-valuemin={0} aria-valuemax={100} aria-valuenow={task.progress}>
            <div className="h-full rounded-full bg-gradient-to-r from-brand-500 to-accent-400 transition-all" style={{ width: `${Math.max(3, task.progress)}%` }} />
          </div>
          <div className="relative flex max-h-[60vh] items-center justify-center overflow-hidden rounded-xl bg-zinc-950 ring-1 ring-zinc-800" style={{ aspectRatio: frameRatio(params.aspectRatio) }}>
            {task.previewUrl ? (
              // eslint-disable-next-line @next/next/no-img-element
              <img src={task.previewUrl} alt="生成预览" className="h-full w-full object-contain" />
            ) : (
              <span className="px-6 text-center text-sm text-zinc-500">{task.stage === 'QUEUED' ? '排队等待 Midjourney…' : '等待 Midjourney 开始绘制…'}</span>
            )}
            <span className="absolute bottom-2 right-2 flex items-center gap-1.5 rounded-md bg-black/60 px-2 py-1 text-xs text-white backdrop-blur">
              <Spinner className="size-3.5" /> {task.progress}%
            </span>
          </div>
        </div>
      )}

      {task.status === 'SUCCESS' && (
        <>
          {task.results.map((image, i) => (
            <figure key={image.url} className="group relative flex justify-center overflow-hidden rounded-xl bg-zinc-950 ring-1 ring-zinc-800">
              <a href={image.url} target="_blank" rel="noopener noreferrer">
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img src={image.url} alt={`生成结果 ${i + 1}`} width={image.width} height={image.height} className="max-h-[60vh] w-auto object-contain" />
              </a>
              <a href={image.url} download={`${task.id}-${i + 1}.png`} className="absolute bottom-2 right-2 rounded-lg bg-black/60 px-2.5 py-1 text-xs text-white opacity-90 backdrop-blur transition hover:bg-black/80 sm:opacity-0 sm:group-hover:opacity-100">
                下载
              </a>
            </figure>
          ))}
          {task.results.length === 0 && sources[0] && (
            <figure className="flex items-center gap-3 rounded-xl bg-zinc-950/60 p-2 ring-1 ring-zinc-800">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={sources[0]} alt="识别的图片" className="size-20 rounded-lg object-cover" />
              <figcaption className="text-xs text-zinc-500">Midjourney 为这张图写了 {described.length} 条提示词</figcaption>
            </figure>
          )}
          {described.length > 0 && <MjDescribed task={task} prompts={described} onPressed={(child) => onOpen(child.id)} onUsePrompt={onUsePrompt} />}
          <MjButtons task={task} onPressed={(child) => onOpen(child.id)} />
        </>
      )}

      {(task.status === 'FAIL' || task.status === 'CANCELED') && (
        <div className="space-y-3">
          <p className="rounded-lg bg-red-500/10 px-3 py-2 text-sm text-red-300">{task.errorMessage ?? '任务未完成'}</p>
          <Button size="sm" variant="secondary" loading={busy} onClick={retry}>
            重新生成
          </Button>
        </div>
      )}

      {params.prompt && (
        <dl className="space-y-1.5 border-t border-zinc-800 pt-3 text-xs">
          <div className="flex gap-2">
            <dt className="shrink-0 text-zinc-500">提示词</dt>
            <dd className="min-w-0 break-words text-zinc-300">{params.modalPrompt ?? params.prompt}</dd>
          </div>
          {params.promptEn && (
            <div className="flex gap-2">
              <dt className="shrink-0 text-zinc-500">英文译文</dt>
              <dd className="min-w-0 break-words text-zinc-300" data-testid="mj-translated">
                {params.promptEn}
              </dd>
            </div>
          )}
          {params.finalPrompt && (
            <div className="flex gap-2">
              <dt className="shrink-0 text-zinc-500">实际指令</dt>
              <dd className="min-w-0 break-words font-mono text-zinc-400">{params.finalPrompt}</dd>
            </div>
          )}
        </dl>
      )}
    </Card>
  )
}
