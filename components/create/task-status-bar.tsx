'use client'

import { useCancelTask, type TaskJson } from '@/lib/api-client/resources/tasks'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { stageText } from './task-labels'

/** Where a submitted task stands, with 取消 while it has not ended. */
export function TaskStatusBar({ task }: { task: TaskJson }) {
  const { mutateAsync: cancelTask } = useCancelTask()
  const [busy, run] = useAction()
  return (
    <div className="flex flex-wrap items-center justify-between gap-2" data-testid="task-status">
      <span className="text-sm text-zinc-300">{stageText(task.status, task.stage, task.queuePosition, task.progress)}</span>
      {task.status === 'PENDING' && (
        <Button size="sm" variant="ghost" loading={busy} onClick={() => run(async () => (await cancelTask(task.id), toast.success('已取消，积分已退还')))}>
          取消
        </Button>
      )}
    </div>
  )
}
