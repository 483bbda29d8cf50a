'use client'

import { useSubmitTask } from '@/lib/api-client/resources/tasks'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { MakeItMoveLink } from '@/components/video/make-it-move-link'
import { TaskFailure } from './task-failure'
import { TaskImages } from './task-images'
import { TaskStatusBar } from './task-status-bar'
import { WaitingNote } from './waiting-note'
import { useTask } from './use-task'

/** The task just submitted: live progress, then the images (download, 做同款), or the error. */
export function TaskResult({ taskId, onNewTask, placeholder }: { taskId: string | null; onNewTask: (id: string) => void; placeholder: string }) {
  const { data: task } = useTask(taskId)
  const submit = useSubmitTask()
  const [busy, run] = useAction()

  if (!taskId || !task) {
    return (
      <Card className="flex min-h-72 items-center justify-center text-center text-sm text-zinc-500">
        <p>{placeholder}</p>
      </Card>
    )
  }

  return (
    <Card className="space-y-4">
      <TaskStatusBar task={task} />
      {task.status === 'PENDING' && (
        <div className="space-y-3">
          <WaitingNote note={task.waitingNote} />
          <div className="h-2 overflow-hidden rounded-full bg-zinc-800" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={task.progress}>
            <div
              className="h-full rounded-full bg-gradient-to-r from-brand-500 to-accent-400 transition-all"
              style={{ width: `${Math.max(3, task.progress)}%` }}
            />
          </div>
          <div className="flex items-center gap-2 text-xs text-zinc-500">
            <Spinner className="size-3.5" /> {task.progress}%
          </div>
        </div>
      )}
      {task.status === 'SUCCESS' && (
        <>
          <TaskImages task={task} onDeleted={() => onNewTask('')} />
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="secondary"
              loading={busy}
              onClick={() => run(async () => onNewTask((await submit({ type: 'MAKE_SAME', params: { sourceTaskId: task.id } })).id))}
            >
              做同款
            </Button>
            {task.results.length > 0 && <MakeItMoveLink taskId={task.id} index={0} />}
          </div>
        </>
      )}
      {(task.status === 'FAIL' || task.status === 'CANCELED') && <TaskFailure task={task} onNewTask={onNewTask} />}
    </Card>
  )
}
