'use client'

import type { WallItemJson } from '@/lib/api-client/resources/wall'

/**
 * One work on a wall (a clip by its poster, marked 视频): its thumbnail at its real aspect ratio
 * (space kept before it loads), the prompt and likes on hover. With `fill`, it fills a cell
 * sized by its parent instead, its thumbnail cropped to the cell.
 */
export function WorkTile({ work, onOpen, fill = false }: { work: WallItemJson; onOpen: () => void; fill?: boolean }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className={`group relative block w-full overflow-hidden rounded-xl bg-zinc-900 text-left ring-1 ring-zinc-800 transition hover:ring-brand-500/70 focus-visible:outline-2 focus-visible:outline-brand-400 ${fill ? 'h-full' : ''}`}
      style={fill ? undefined : { aspectRatio: `${work.width} / ${work.height}` }}
      aria-label={`查看作品：${work.prompt.slice(0, 40)}`}
      data-testid="wall-tile"
    >
      <img
        src={work.thumbUrl}
        alt={work.prompt.slice(0, 80)}
        width={work.width}
        height={work.height}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
      {work.featured && <span className="absolute left-2 top-2 rounded-md bg-brand-600/90 px-1.5 py-0.5 text-[10px] font-medium text-white">精选</span>}
      {work.video && (
        <span
          className="absolute right-2 top-2 flex items-center gap-1 rounded-md bg-black/70 px-1.5 py-0.5 text-[10px] font-medium text-white"
          data-testid="tile-video"
        >
          <span aria-hidden>▶</span>
          视频{work.video.durationSec ? ` ${Math.round(work.video.durationSec)}秒` : ''}
        </span>
      )}
      <span className="pointer-events-none absolute inset-x-0 bottom-0 flex items-end justify-between gap-2 bg-gradient-to-t from-black/80 to-transparent p-2 pt-8 text-xs text-white opacity-100 transition sm:opacity-0 sm:group-hover:opacity-100">
        <span className="line-clamp-2 min-w-0">{work.prompt}</span>
        <span className="shrink-0 text-zinc-200">♥ {work.likes}</span>
      </span>
    </button>
  )
}
