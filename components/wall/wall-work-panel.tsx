'use client'

import Link from 'next/link'
import { useState } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useReportWork, useToggleFavorite, useToggleLike, useWallWork, type WallItemJson } from '@/lib/api-client/resources/wall'
import { formatDateTime } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { toast } from '@/lib/ui/toast-store'
import { makeSameHref } from '@/lib/wall/labels'
import { Button } from '@/components/ui/button'
import { copyLink } from './copy-link'
import { Fact, isWeChat } from './image-viewer'

/** The facts and actions of a work on the wall, inside the viewer. */
export function WallWorkPanel({ work }: { work: WallItemJson }) {
  const { data: detail } = useWallWork(work.id)
  const { isSignedIn } = useProfile()
  const like = useToggleLike()
  const favorite = useToggleFavorite()
  const report = useReportWork()
  const [kept, setKept] = useState<{ id: string; favorited: boolean } | null>(null)
  const favorited = kept?.id === work.id ? kept.favorited : (detail?.favorited ?? false)
  const [own, setOwn] = useState<{ id: string; liked: boolean; likes: number } | null>(null)
  const current = own?.id === work.id ? own : { liked: detail?.liked ?? work.liked ?? false, likes: detail?.likes ?? work.likes }
  const wechat = isWeChat()

  async function toggleLike() {
    if (!isSignedIn) return toast.info('登录后才能点赞')
    const result = await like.mutateAsync(work.id).catch(() => null)
    if (result) setOwn({ id: work.id, ...result })
  }

  async function reportIt() {
    if (!isSignedIn) return toast.info('登录后才能举报')
    if (await report.mutateAsync(work.id).catch(() => null)) toast.success('已举报，管理员会尽快处理')
  }

  async function toggleFavorite() {
    if (!isSignedIn) return toast.info('登录后才能收藏')
    const result = await favorite.mutateAsync(work.id).catch(() => null)
    if (result) {
      setKept({ id: work.id, ...result })
      toast.success(result.favorited ? '已收藏，可在作品墙“我的收藏”中查看' : '已取消收藏')
    }
  }

  return (
    <div
      className="h-full space-y-4 bg-zinc-950/95 p-4 text-sm text-zinc-200 ring-1 ring-zinc-800 backdrop-blur lg:overflow-y-auto lg:pt-16"
      data-testid="viewer-panel"
    >
      <div className="flex items-center gap-2.5">
        <img src={work.author.avatar} alt="" className="size-8 rounded-full bg-zinc-800 object-cover" />
        <div className="min-w-0">
          <div className="truncate text-sm font-medium text-white">{work.author.name}</div>
          {detail && <div className="text-[11px] text-zinc-500">{formatDateTime(detail.listedAt ?? detail.createdAt)}</div>}
        </div>
        {work.featured && <span className="ml-auto rounded-md bg-brand-600/80 px-1.5 py-0.5 text-[10px] text-white">精选</span>}
      </div>
      <p className="whitespace-pre-wrap break-words text-sm leading-relaxed text-zinc-100" data-testid="viewer-prompt">
        {work.prompt || '（无提示词）'}
      </p>
      <dl className="space-y-1.5">
        <Fact label="反向提示">{detail?.negativePrompt}</Fact>
        <Fact label="模型">{work.model}</Fact>
        <Fact label="尺寸">{`${work.width} × ${work.height}`}</Fact>
        <Fact label="时长">{work.video?.durationSec ? `${Math.round(work.video.durationSec)} 秒` : null}</Fact>
        <Fact label="种子">{detail?.seed ?? null}</Fact>
        <Fact label="步数">{detail?.steps ?? null}</Fact>
        <Fact label="CFG">{detail?.cfgScale ?? null}</Fact>
        <Fact label="采样器">{detail?.sampler}</Fact>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant={current.liked ? 'primary' : 'secondary'} onClick={toggleLike} loading={like.isPending} aria-pressed={current.liked}>
          <span className={cn(current.liked && 'text-white')}>♥</span> {current.liked ? '已赞' : '点赞'} {current.likes}
        </Button>
        <Button size="sm" variant="secondary" onClick={toggleFavorite} loading={favorite.isPending} aria-pressed={favorited}>
          {favorited ? '已收藏' : '收藏'}
        </Button>
        <Link href={makeSameHref(work)}>
          <Button size="sm">做同款</Button>
        </Link>
        {!wechat && (
          <a href={work.video?.url ?? work.imageUrl} download className="inline-flex">
            <Button size="sm" variant="secondary" tabIndex={-1}>
              下载
            </Button>
          </a>
        )}
        <Button size="sm" variant="ghost" onClick={() => copyLink(`/image_wall?work=${work.id}`)}>
          分享
        </Button>
        <Button size="sm" variant="ghost" className="text-zinc-500" onClick={reportIt} loading={report.isPending}>
          举报
        </Button>
      </div>
      {wechat && <p className="rounded-lg bg-zinc-900 px-3 py-2 text-xs text-zinc-400">微信内无法直接下载：长按图片保存到手机</p>}
    </div>
  )
}
