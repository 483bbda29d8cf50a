'use client'

import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { usePublishTask } from '@/lib/api-client/resources/wall'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { copyLink } from './copy-link'

/** 公开到作品墙 / 取消公开 for one of the user's finished tasks (picture `index`, or its clip), and 复制分享链接 once it is on the wall. */
export function PublishControls({ task, index }: { task: TaskJson; index: number }) {
  const publish = usePublishTask()
  const [busy, run] = useAction()
  const wall = task.wallWork
  const published = wall && wall.status !== 'HIDDEN'
  return (
    <>
      {task.status === 'SUCCESS' && wall?.status !== 'HIDDEN' && (
        <Button
          size="sm"
          variant={published ? 'secondary' : 'primary'}
          loading={busy}
          onClick={() =>
            run(async () => {
              const state = await publish.mutateAsync({ taskId: task.id, publish: !published, index })
              toast.success(!published ? (state.status === 'APPROVED' ? '已公开到作品墙' : '已提交，审核通过后显示在作品墙') : '已取消公开')
            })
          }
        >
          {published ? '取消公开' : '公开到作品墙'}
        </Button>
      )}
      {wall?.status === 'APPROVED' && (
        <Button size="sm" variant="ghost" onClick={() => copyLink(`/image_wall?work=${wall.id}`)}>
          复制分享链接
        </Button>
      )}
    </>
  )
}
