'use client'

import { useRef } from 'react'
import { useUploadImage, type Uploaded } from '@/lib/api-client/resources/uploads'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'

const MAX_BYTES = 10 * 1024 * 1024

/** Several pictures for a task (reference images, blend inputs): add up to `max`, remove any. */
export function MjImagesField({
  label,
  hint,
  max,
  value,
  onChange,
}: {
  label: string
  hint: string
  max: number
  value: Uploaded[]
  onChange: (next: Uploaded[]) => void
}) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, run] = useAction()
  const upload = useUploadImage()

  async function pick(files: FileList | null) {
    const chosen = [...(files ?? [])].slice(0, max - value.length)
    if (chosen.some((f) => f.size > MAX_BYTES)) return toast.error('图片不能超过 10MB')
    await run(async () => {
      const added: Uploaded[] = []
      for (const file of chosen) added.push(await upload.mutateAsync(file))
      onChange([...value, ...added])
    })
    if (input.current) input.current.value = ''
  }

  return (
    <div>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium text-zinc-300">{label}</span>
        <span className="text-xs text-zinc-500">
          {value.length}/{max}
        </span>
      </div>
      <input
        ref={input}
        type="file"
        multiple={max > 1}
        accept="image/png,image/jpeg,image/webp,image/gif"
        className="hidden"
        aria-label={label}
        onChange={(e) => pick(e.target.files)}
      />
      <div className="grid grid-cols-4 gap-2 sm:grid-cols-5">
        {value.map((image, i) => (
          <div key={image.id} className="group relative aspect-square overflow-hidden rounded-lg bg-zinc-950 ring-1 ring-zinc-800">
            <img src={image.url} alt={`${label} ${i + 1}`} className="h-full w-full object-cover" />
            <button
              type="button"
              aria-label={`移除${label} ${i + 1}`}
              onClick={() => onChange(value.filter((v) => v.id !== image.id))}
              className="absolute right-1 top-1 flex size-6 items-center justify-center rounded-full bg-black/70 text-xs text-white transition hover:bg-red-600"
            >
              ✕
            </button>
          </div>
        ))}
        {value.length < max && (
          <button
            type="button"
            disabled={busy}
            onClick={() => input.current?.click()}
            className="flex aspect-square flex-col items-center justify-center gap-0.5 rounded-lg border border-dashed border-zinc-700 bg-zinc-900/60 text-zinc-400 transition hover:border-brand-500 hover:text-white"
          >
            <span className="text-xl leading-none">{busy ? '…' : '+'}</span>
            <span className="text-[11px]">{busy ? '上传中' : '添加'}</span>
          </button>
        )}
      </div>
      <p className="mt-1.5 text-xs text-zinc-500">{hint}</p>
    </div>
  )
}
