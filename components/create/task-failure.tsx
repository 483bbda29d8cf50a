'use client'

import { useSubmitTask, type TaskJson } from '@/lib/api-client/resources/tasks'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { retryRequest } from './retry-request'

/** A task that failed or was cancelled: why, and 重新生成 (the same request on the same model, charged again). */
export function TaskFailure({ task, onNewTask }: { task: TaskJson; onNewTask: (id: string) => void }) {
  const submit = useSubmitTask()
  const [busy, run] = useAction()
  return (
    <>
      <p className="rounded-lg bg-red-500/10 px-3 py-2 text-sm text-red-300">{task.errorMessage ?? '任务未完成'}</p>
      <Button
        size="sm"
        variant="secondary"
        loading={busy}
        onClick={() => run(async () => onNewTask((await submit({ ...retryRequest(task), modelId: task.model.id })).id))}
      >
        重新生成
      </Button>
    </>
  )
}
