'use client'

import { useRef } from 'react'
import { useUploadImage, type Uploaded } from '@/lib/api-client/resources/uploads'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'

export type { Uploaded }

const MAX_BYTES = 10 * 1024 * 1024

/** Uploads one picture (≤10MB) for a task and shows it; the server checks and re-encodes it. */
export function ImageUploadField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string
  hint: string
  value: Uploaded | null
  onChange: (next: Uploaded | null) => void
}) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, run] = useAction()
  const upload = useUploadImage()

  async function pick(file: File | undefined) {
    if (!file) return
    if (file.size > MAX_BYTES) return toast.error('图片不能超过 10MB')
    await run(async () => onChange(await upload.mutateAsync(file)))
    if (input.current) input.current.value = ''
  }

  return (
    <div>
      <div className="mb-1.5 text-sm font-medium text-zinc-300">{label}</div>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        className="hidden"
        aria-label={label}
        onChange={(e) => pick(e.target.files?.[0])}
      />
      {value ? (
        <div className="flex items-center gap-3">
          <img src={value.url} alt={label} className="size-20 rounded-lg bg-zinc-900 object-contain ring-1 ring-zinc-800" />
          <div className="space-y-1 text-xs text-zinc-500">
            <div>
              {value.width}×{value.height}
            </div>
            <Button size="sm" variant="ghost" loading={busy} onClick={() => input.current?.click()}>
              更换
            </Button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() => input.current?.click()}
          className="flex h-28 w-full flex-col items-center justify-center gap-1 rounded-xl border border-dashed border-zinc-700 bg-zinc-900/60 text-sm text-zinc-400 transition hover:border-brand-500 hover:text-white"
        >
          <span>{busy ? '上传中…' : '点击上传图片'}</span>
          <span className="text-xs text-zinc-600">{hint}</span>
        </button>
      )}
    </div>
  )
}
