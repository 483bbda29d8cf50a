'use client'

import { useRefreshMj, usePressButton } from '@/lib/api-client/resources/mj'
import { useCancelTask, useSubmitTask, type TaskJson } from '@/lib/api-client/resources/tasks'
import { classifyCustomId } from '@/lib/mj/actions'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { stageText } from '@/components/create/task-labels'
import { useTask } from '@/components/create/use-task'
import { MjButtons, MjDescribed } from './mj-buttons'
import { MjTaskProgress } from './mj-task-progress'
import { MjPromptFacts, MjResultGrid } from './mj-task-results'

/** What a task was: its button's name, or the kind of submission. */
export function mjTaskTitle(task: Pick<TaskJson, 'action' | 'params'>): string {
  if (task.action === 'blend') return '混图'
  if (task.action === 'describe') return '识图'
  if (task.action && task.action !== 'imagine') return classifyCustomId(task.action)?.label ?? '操作'
  return '文生图'
}

/** The fields a new submission takes, without what the server derived (final prompt, translation ...). */
const SUBMITTED_FIELDS = [
  'mjAction',
  'prompt',
  'aspectRatio',
  'version',
  'niji',
  'stylize',
  'chaos',
  'quality',
  'speed',
  'rawParams',
  'referenceImageIds',
  'dimensions',
]

/** 重新生成 and 取消 of the shown task: a retry presses the same button again, or submits the same request. */
function useTaskActions(task: TaskJson | undefined, onOpen: (id: string) => void) {
  const submit = useSubmitTask()
  const press = usePressButton()
  const refreshMj = useRefreshMj()
  const { mutateAsync: cancelTask } = useCancelTask()
  const [busy, run] = useAction()
  if (!task) return { busy, retry: () => {}, cancel: () => {} }
  const params = task.params as Record<string, string | undefined>
  const retry = () =>
    run(async () => {
      const next =
        task.parentId && params.customId
          ? await press(task.parentId, {
              customId: params.customId,
              ...(params.modalPrompt ? { prompt: params.modalPrompt } : {}),
              ...(params.maskImageId ? { maskImageId: params.maskImageId } : {}),
            })
          : await submit({
              type: task.type,
              modelId: task.model.id,
              params: Object.fromEntries(Object.entries(task.params).filter(([k]) => SUBMITTED_FIELDS.includes(k))),
            })
      await refreshMj()
      onOpen(next.id)
    })
  const cancel = () =>
    run(async () => {
      await cancelTask(task.id)
      toast.success('已取消，积分已退还')
      await refreshMj()
    })
  return { busy, retry, cancel }
}

/** The current Midjourney task: live progress with the preview, then the result, its prompts and its buttons. */
export function MjTaskPanel({
  taskId,
  onOpen,
  onUsePrompt,
  onDeleted,
}: {
  taskId: string | null
  onOpen: (id: string) => void
  onUsePrompt: (prompt: string) => void
  /** The task in view was deleted from its viewer. */
  onDeleted: () => void
}) {
  const { data: task } = useTask(taskId)
  const { busy, retry, cancel } = useTaskActions(task, onOpen)

  if (!taskId || !task) {
    return (
      <Card className="flex min-h-80 flex-col items-center justify-center gap-2 text-center text-sm text-zinc-500">
        <p>生成的四宫格会显示在这里</p>
        <p className="text-xs text-zinc-600">完成后可放大（U）、变体（V）、重新生成（🔄），每一步都会记录在下方的作品树里</p>
      </Card>
    )
  }

  const params = task.params as Record<string, string | undefined>
  const described = Array.isArray(task.params.describedPrompts) ? (task.params.describedPrompts as string[]) : []
  const sources = Array.isArray(task.params.referenceImageUrls) ? (task.params.referenceImageUrls as string[]) : []

  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2 text-sm">
          {task.parentId && (
            <button
              type="button"
              onClick={() => onOpen(task.parentId!)}
              className="shrink-0 rounded-md px-1.5 py-0.5 text-zinc-400 ring-1 ring-zinc-700 transition hover:text-white"
            >
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

      {task.status === 'PENDING' && <MjTaskProgress task={task} aspectRatio={params.aspectRatio} />}

      {task.status === 'SUCCESS' && (
        <>
          <MjResultGrid task={task} describedCount={described.length} source={sources[0]} onDeleted={onDeleted} />
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

      <MjPromptFacts params={params} />
    </Card>
  )
}
