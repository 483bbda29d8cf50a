'use client'

import { useState } from 'react'
import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { useDeleteTask } from '@/lib/api-client/resources/wall'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { WALL_STATUS_LABELS } from '@/lib/wall/labels'
import { Button } from '@/components/ui/button'
import { MakeItMoveLink } from '@/components/video/make-it-move-link'
import { Fact, isWeChat } from './image-viewer'
import { PublishControls } from './publish-controls'

const text = (v: unknown) => (typeof v === 'string' && v ? v : null)

/** The facts and actions of one of the user's own results, inside the viewer: publish, share, download, delete. */
export function OwnResultPanel({ task, index, onDeleted }: { task: TaskJson; index: number; onDeleted?: () => void }) {
  const image = task.results[index]
  const remove = useDeleteTask()
  const [busy, run] = useAction()
  const [confirming, setConfirming] = useState(false)
  const wall = task.wallWork
  const prompt = text(task.params.userPrompt) ?? text(task.params.modalPrompt) ?? text(task.params.prompt) ?? ''
  const wechat = isWeChat()
  if (!image) return null

  return (
    <div
      className="h-full space-y-4 bg-zinc-950/95 p-4 text-sm text-zinc-200 ring-1 ring-zinc-800 backdrop-blur lg:overflow-y-auto lg:pt-16"
      data-testid="viewer-panel"
    >
      <p className="whitespace-pre-wrap break-words leading-relaxed text-zinc-100" data-testid="viewer-prompt">
        {prompt || '（无提示词）'}
      </p>
      <dl className="space-y-1.5">
        <Fact label="反向提示">{text(task.params.negativePrompt)}</Fact>
        <Fact label="模型">{task.model.name}</Fact>
        <Fact label="尺寸">{`${image.width} × ${image.height}`}</Fact>
        <Fact label="种子">{image.seed ?? (typeof task.params.seed === 'number' ? task.params.seed : null)}</Fact>
        <Fact label="时间">{formatDateTime(task.finishedAt ?? task.createdAt)}</Fact>
        <Fact label="作品墙">{wall ? `${WALL_STATUS_LABELS[wall.status]}${wall.featured ? '（精选）' : ''}` : '未公开'}</Fact>
      </dl>
      <div className="flex flex-wrap gap-2">
        <PublishControls task={task} index={index} />
        {task.videos.length === 0 && <MakeItMoveLink taskId={task.id} index={index} />}
        {!wechat && (
          <a href={image.downloadUrl ?? image.url} download={`${task.id}-${index + 1}.png`} className="inline-flex">
            <Button size="sm" variant="secondary" tabIndex={-1}>
              下载
            </Button>
          </a>
        )}
        {!confirming ? (
          <Button size="sm" variant="ghost" className="text-red-400" onClick={() => setConfirming(true)} disabled={task.status === 'PENDING'}>
            删除
          </Button>
        ) : (
          <span className="flex items-center gap-2 rounded-lg bg-red-500/10 px-2 py-1 text-xs text-red-300">
            从我的作品中删除？
            <Button
              size="sm"
              variant="danger"
              loading={busy}
              onClick={() =>
                run(async () => {
                  await remove.mutateAsync(task.id)
                  toast.success('已删除')
                  onDeleted?.()
                })
              }
            >
              确定删除
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              取消
            </Button>
          </span>
        )}
      </div>
      {wall?.status === 'HIDDEN' && <p className="text-xs text-amber-300">该作品已被管理员从作品墙隐藏</p>}
      {wechat && <p className="rounded-lg bg-zinc-900 px-3 py-2 text-xs text-zinc-400">微信内无法直接下载：长按图片保存到手机</p>}
    </div>
  )
}
