'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import { useState } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useVideo, type VideoKindParam } from '@/lib/api-client/resources/videos'
import { formatCents } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Badge, Card, EmptyState } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { useKeptLink } from './use-kept-link'
import { formatDuration } from './video-card'
import { VideoPayDialog } from './video-pay-dialog'

const BACK: Record<VideoKindParam, { href: string; label: string }> = {
  free: { href: '/video', label: '免费视频素材' },
  paid: { href: '/video_buy', label: '付费视频素材' },
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GB`
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}

/**
 * /video/{id} and /video_buy/{id}: the player (the original through a signed link, with byte
 * ranges, for a free item signed in or a bought one), else the preview clip and 购买 or 登录.
 */
export function VideoDetailView({ id, kind }: { id: string; kind: VideoKindParam }) {
  const video = useVideo(id)
  const { isSignedIn } = useProfile()
  const pathname = usePathname()
  const [paying, setPaying] = useState(false)
  const v = video.data
  const player = useKeptLink(id, v?.playUrl)
  const back = BACK[kind]

  return (
    <div className="mx-auto max-w-5xl px-4 py-6">
      <Link href={back.href} className="text-sm text-zinc-400 hover:text-white">
        ← {back.label}
      </Link>
      {video.isLoading ? (
        <Loading />
      ) : !v ? (
        <EmptyState>视频不存在、已下架或加载失败</EmptyState>
      ) : (
        <div className="mt-4 grid gap-6 lg:grid-cols-[1fr_300px]">
          <div className="overflow-hidden rounded-xl bg-black ring-1 ring-zinc-800">
            {player.src ? (
              <video
                key={id}
                src={player.src}
                onError={() => void video.refetch().then((fresh) => player.renew(fresh.data?.playUrl))}
                poster={v.posterUrl}
                controls
                playsInline
                preload="metadata"
                className="aspect-video w-full"
                data-testid="video-player"
              />
            ) : v.previewUrl ? (
              <video
                src={v.previewUrl}
                poster={v.posterUrl}
                controls
                playsInline
                muted
                loop
                preload="metadata"
                className="aspect-video w-full"
                data-testid="video-preview"
              />
            ) : (
              <img src={v.posterUrl} alt={v.title} className="aspect-video w-full object-contain" />
            )}
          </div>
          <Card className="space-y-4">
            <div>
              <h1 className="text-lg font-semibold text-white">{v.title}</h1>
              {!v.playUrl && v.previewUrl && <p className="mt-1 text-xs text-zinc-500">正在播放预览片段，购买后可观看和下载原片</p>}
            </div>
            <dl className="grid grid-cols-2 gap-2 text-sm">
              <dt className="text-zinc-500">时长</dt>
              <dd className="text-zinc-200 tabular-nums">{formatDuration(v.durationSec)}</dd>
              <dt className="text-zinc-500">分辨率</dt>
              <dd className="text-zinc-200 tabular-nums">
                {v.width}×{v.height}
              </dd>
              <dt className="text-zinc-500">大小</dt>
              <dd className="text-zinc-200 tabular-nums">{formatSize(v.size)}</dd>
              {v.kind === 'paid' && (
                <>
                  <dt className="text-zinc-500">价格</dt>
                  <dd className="text-amber-300 tabular-nums">¥{formatCents(v.price)}</dd>
                </>
              )}
            </dl>
            {v.tags.length > 0 && (
              <div className="flex flex-wrap gap-1">
                {v.tags.map((t) => (
                  <Badge key={t}>{t}</Badge>
                ))}
              </div>
            )}
            {v.description && <p className="text-sm whitespace-pre-wrap text-zinc-400">{v.description}</p>}
            {v.downloadUrl ? (
              <div className="space-y-2">
                {v.bought && <Badge tone="green">已购买</Badge>}
                <a
                  href={v.downloadUrl}
                  download
                  className="flex h-10 w-full items-center justify-center rounded-lg bg-brand-500 text-sm font-medium text-white hover:bg-brand-400"
                  data-testid="video-download"
                >
                  下载原片
                </a>
                <p className="text-xs text-zinc-500">下载链接有时效，过期后刷新页面即可</p>
              </div>
            ) : isSignedIn === false ? (
              <Link
                href={`/login?redirect=${encodeURIComponent(pathname)}`}
                className="flex h-10 w-full items-center justify-center rounded-lg bg-brand-500 text-sm font-medium text-white hover:bg-brand-400"
              >
                {v.kind === 'paid' ? '登录后购买' : '登录后播放和下载'}
              </Link>
            ) : v.kind === 'paid' && isSignedIn ? (
              <Button className="w-full" onClick={() => setPaying(true)}>
                购买 ¥{formatCents(v.price)}
              </Button>
            ) : null}
          </Card>
          <VideoPayDialog items={[v]} open={paying} onClose={() => setPaying(false)} />
        </div>
      )}
    </div>
  )
}
