'use client'

import { useRef, useState } from 'react'
import { useUploadImage } from '@/lib/api-client/resources/uploads'
import { useMyTasks } from '@/lib/api-client/resources/tasks'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { Pagination } from '@/components/ui/pagination'
import { Loading } from '@/components/ui/spinner'

/** A chosen frame: an upload's id or `task:<id>:<n>` (one of the user's results), and what to show. */
export type Frame = { ref: string; url: string }

const MAX_BYTES = 10 * 1024 * 1024
const PAGE_SIZE = 12

/** One input frame: uploaded here, or picked from the user's own finished pictures. */
export function FramePicker({ label, hint, value, onChange }: { label: string; hint: string; value: Frame | null; onChange: (next: Frame | null) => void }) {
  const input = useRef<HTMLInputElement>(null)
  const [busy, run] = useAction()
  const [isPicking, setPicking] = useState(false)
  const upload = useUploadImage()

  async function pick(file: File | undefined) {
    if (!file) return
    if (file.size > MAX_BYTES) return toast.error('图片不能超过 10MB')
    await run(async () => {
      const uploaded = await upload.mutateAsync(file)
      onChange({ ref: uploaded.id, url: uploaded.url })
    })
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
      <div className="flex items-center gap-3">
        <div className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-zinc-900 ring-1 ring-zinc-800">
          {value ? (
            <img src={value.url} alt={label} className="h-full w-full object-cover" />
          ) : (
            <span className="px-2 text-center text-xs text-zinc-600">{hint}</span>
          )}
        </div>
        <div className="flex flex-col gap-1.5">
          <Button size="sm" variant="secondary" loading={busy} onClick={() => input.current?.click()}>
            {busy ? '上传中…' : '上传图片'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setPicking(true)}>
            从我的作品选择
          </Button>
          {value && (
            <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
              移除
            </Button>
          )}
        </div>
      </div>
      <MyPicturesDialog
        open={isPicking}
        onClose={() => setPicking(false)}
        onPick={(frame) => {
          onChange(frame)
          setPicking(false)
        }}
      />
    </div>
  )
}

/** The user's finished pictures, a page at a time; a click picks one. */
function MyPicturesDialog({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (frame: Frame) => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="从我的作品选择" description="选择一张已生成的图片作为画面">
      {open && <MyPictures onPick={onPick} />}
    </Dialog>
  )
}

function MyPictures({ onPick }: { onPick: (frame: Frame) => void }) {
  const [page, setPage] = useState(1)
  const { data, isLoading } = useMyTasks({ page, pageSize: PAGE_SIZE, status: 'SUCCESS' })
  const pictures = (data?.list ?? []).flatMap((task) => task.results.map((image, i) => ({ ref: `task:${task.id}:${i}`, url: image.thumbUrl || image.url })))

  return (
    <div className="min-h-40 space-y-3">
      {isLoading && <Loading />}
      {data && pictures.length === 0 && <EmptyState>这一页没有可用的图片作品</EmptyState>}
      <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
        {pictures.map((p) => (
          <button
            key={p.ref}
            type="button"
            onClick={() => onPick(p)}
            className="aspect-square overflow-hidden rounded-lg bg-zinc-900 ring-1 ring-zinc-800 transition hover:ring-brand-500"
          >
            <img src={p.url} alt="我的作品" className="h-full w-full object-cover" loading="lazy" />
          </button>
        ))}
      </div>
      {data && data.total > PAGE_SIZE && <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />}
    </div>
  )
}
