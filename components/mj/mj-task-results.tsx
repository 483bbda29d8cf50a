'use client'

import { useState } from 'react'
import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { ImageViewer } from '@/components/wall/image-viewer'
import { OwnResultPanel } from '@/components/wall/own-result-panel'

/** A finished task's pictures, each opening the result viewer, with a download button; a describe shows the picture it read. */
export function MjResultGrid({
  task,
  describedCount,
  source,
  onDeleted,
}: {
  task: TaskJson
  describedCount: number
  source: string | undefined
  onDeleted: () => void
}) {
  const [open, setOpen] = useState(-1)
  return (
    <>
      {task.results.map((image, i) => (
        <figure key={image.url} className="group relative flex justify-center overflow-hidden rounded-xl bg-zinc-950 ring-1 ring-zinc-800">
          <button type="button" onClick={() => setOpen(i)} aria-label={`查看生成结果 ${i + 1}`}>
            <img src={image.url} alt={`生成结果 ${i + 1}`} width={image.width} height={image.height} className="max-h-[60vh] w-auto object-contain" />
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
      <ImageViewer
        slides={task.results.map((image, i) => ({ key: image.url, src: image.url, width: image.width, height: image.height, alt: `生成结果 ${i + 1}` }))}
        index={open}
        onIndexChange={setOpen}
        onClose={() => setOpen(-1)}
        panel={(i) => <OwnResultPanel task={task} index={i} onDeleted={() => (setOpen(-1), onDeleted())} />}
      />
      {task.results.length === 0 && source && (
        <figure className="flex items-center gap-3 rounded-xl bg-zinc-950/60 p-2 ring-1 ring-zinc-800">
          <img src={source} alt="识别的图片" className="size-20 rounded-lg object-cover" />
          <figcaption className="text-xs text-zinc-500">Midjourney 为这张图写了 {describedCount} 条提示词</figcaption>
        </figure>
      )}
    </>
  )
}

/** What was asked: the prompt, its English translation, and the command the proxy got. */
export function MjPromptFacts({ params }: { params: Record<string, string | undefined> }) {
  if (!params.prompt) return null
  return (
    <dl className="space-y-1.5 border-t border-zinc-800 pt-3 text-xs">
      <div className="flex gap-2">
        <dt className="shrink-0 text-zinc-500">提示词</dt>
        <dd className="min-w-0 break-words text-zinc-300">{params.modalPrompt ?? params.prompt}</dd>
      </div>
      {params.promptEn && (
        <div className="flex gap-2">
          <dt className="shrink-0 text-zinc-500">英文译文</dt>
          <dd className="min-w-0 break-words text-zinc-300" data-testid="mj-translated">
            {params.promptEn}
          </dd>
        </div>
      )}
      {params.finalPrompt && (
        <div className="flex gap-2">
          <dt className="shrink-0 text-zinc-500">实际指令</dt>
          <dd className="min-w-0 break-words font-mono text-zinc-400">{params.finalPrompt}</dd>
        </div>
      )}
    </dl>
  )
}
