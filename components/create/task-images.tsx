'use client'

import type { StoredImage } from '@/lib/generation/store-results'
import { cn } from '@/lib/ui/cn'

/** Result images with an enlarge link and a download button each. */
export function TaskImages({ images, taskId, compact }: { images: StoredImage[]; taskId: string; compact?: boolean }) {
  return (
    <div className={cn('grid gap-3', images.length > 1 ? 'grid-cols-2' : 'grid-cols-1')}>
      {images.map((image, i) => (
        <figure key={image.url} className="group relative overflow-hidden rounded-xl bg-zinc-900 ring-1 ring-zinc-800">
          <a href={image.url} target="_blank" rel="noopener noreferrer">
            <img
              src={compact ? image.thumbUrl : image.url}
              alt={`生成结果 ${i + 1}`}
              width={image.width}
              height={image.height}
              className="h-auto w-full object-contain"
              loading="lazy"
            />
          </a>
          <a
            href={image.downloadUrl ?? image.url}
            download={`${taskId}-${i + 1}.png`}
            className="absolute bottom-2 right-2 rounded-lg bg-black/60 px-2.5 py-1 text-xs text-white opacity-90 backdrop-blur transition hover:bg-black/80 sm:opacity-0 sm:group-hover:opacity-100"
          >
            下载
          </a>
        </figure>
      ))}
    </div>
  )
}
