'use client'

import { useState } from 'react'
import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { cn } from '@/lib/ui/cn'
import { ImageViewer } from '@/components/wall/image-viewer'
import { OwnResultPanel } from '@/components/wall/own-result-panel'

/** A task's result images with a download button each; each opens the viewer (zoom, prompt and seed, publish, share, download, delete). */
export function TaskImages({ task, compact, onDeleted }: { task: TaskJson; compact?: boolean; onDeleted?: () => void }) {
  const [open, setOpen] = useState(-1)
  const images = task.results
  return (
    <>
      <div className={cn('grid gap-3', images.length > 1 ? 'grid-cols-2' : 'grid-cols-1')}>
        {images.map((image, i) => (
          <figure
            key={image.url}
            className="group relative overflow-hidden rounded-xl bg-zinc-900 ring-1 ring-zinc-800 transition hover:ring-brand-500/70"
            style={{ aspectRatio: `${image.width} / ${image.height}` }}
          >
            <button type="button" onClick={() => setOpen(i)} className="block h-full w-full" aria-label={`查看生成结果 ${i + 1}`}>
              <img
                src={compact ? image.thumbUrl : image.url}
                alt={`生成结果 ${i + 1}`}
                width={image.width}
                height={image.height}
                className="h-full w-full object-contain"
                loading="lazy"
              />
            </button>
            <a
              href={image.downloadUrl ?? image.url}
              download={`${task.id}-${i + 1}.png`}
              className="absolute bottom-2 right-2 rounded-lg bg-black/60 px-2.5 py-1 text-xs text-white opacity-90 backdrop-blur transition hover:bg-black/80 sm:opacity-0 sm:group-hover:opacity-100"
            >
              下载
            </a>
          </figure>
        ))}
      </div>
      <ImageViewer
        slides={images.map((image, i) => ({ key: image.url, src: image.url, width: image.width, height: image.height, alt: `生成结果 ${i + 1}` }))}
        index={open}
        onIndexChange={setOpen}
        onClose={() => setOpen(-1)}
        panel={(i) => <OwnResultPanel task={task} index={i} onDeleted={() => (setOpen(-1), onDeleted?.())} />}
      />
    </>
  )
}
