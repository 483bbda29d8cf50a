'use client'

import Link from 'next/link'
import type { VideoListItem } from '@/lib/api-client/resources/videos'
import { formatCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'

export function formatDuration(sec: number): string {
  const s = Math.round(sec)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** A poster with duration, resolution, tags and (paid) the price; `onToggle` adds a selection box. */
export function VideoCard({ video, href, selected, onToggle }: { video: VideoListItem; href: string; selected?: boolean; onToggle?: () => void }) {
  return (
    <div
      className={cn('group relative overflow-hidden rounded-xl bg-zinc-900 ring-1 ring-zinc-800', selected && 'ring-2 ring-brand-500')}
      data-testid="video-card"
    >
      <Link href={href} className="block">
        <div className="relative aspect-video bg-zinc-950">
          <img src={video.posterUrl} alt={video.title} loading="lazy" className="size-full object-cover" />
          <span className="absolute right-2 bottom-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white tabular-nums">
            {formatDuration(video.durationSec)}
          </span>
          <span className="absolute bottom-2 left-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-zinc-200 tabular-nums">
            {video.width}×{video.height}
          </span>
        </div>
        <div className="space-y-1 p-3">
          <div className="flex items-start justify-between gap-2">
            <h3 className="truncate text-sm font-medium text-white">{video.title}</h3>
            {video.kind === 'paid' && (
              <span className={cn('shrink-0 text-sm tabular-nums', video.bought ? 'text-emerald-400' : 'text-amber-300')}>
                {video.bought ? '已购买' : `¥${formatCents(video.price)}`}
              </span>
            )}
          </div>
          <div className="flex h-5 flex-wrap gap-1 overflow-hidden">
            {video.tags.map((t) => (
              <span key={t} className="rounded bg-zinc-800 px-1.5 text-xs text-zinc-400">
                {t}
              </span>
            ))}
          </div>
        </div>
      </Link>
      {onToggle && !video.bought && (
        <label className="absolute top-2 left-2 flex size-8 cursor-pointer items-center justify-center rounded-lg bg-black/60">
          <input type="checkbox" checked={Boolean(selected)} onChange={onToggle} aria-label={`选择 ${video.title}`} className="size-4 accent-brand-500" />
        </label>
      )}
    </div>
  )
}
