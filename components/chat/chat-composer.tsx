'use client'

import { useRef, useState, type KeyboardEvent } from 'react'
import { useUploadImage, type Uploaded } from '@/lib/api-client/resources/uploads'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/field'

const MAX_IMAGES = 4

type Props = {
  busy: boolean
  vision: boolean
  disabled: boolean
  hint: string
  /** Resolves false when the message was refused: the box gets it back. */
  onSend: (content: string, images: string[]) => Promise<boolean>
  onStop: () => void
}

/** The message box: Enter sends (Shift+Enter for a new line), 停止 while an answer streams, pictures for models that read them. */
export function ChatComposer({ busy, vision, disabled, hint, onSend, onStop }: Props) {
  const [text, setText] = useState('')
  const [images, setImages] = useState<Uploaded[]>([])
  const upload = useUploadImage()
  const file = useRef<HTMLInputElement>(null)

  async function submit() {
    const content = text.trim()
    if (!content || busy || disabled || upload.isPending) return
    // Pictures picked for a model that reads them stay out of sight (and unsent) on one that does not.
    const attached = vision ? images : []
    setText('')
    setImages((now) => (vision ? [] : now))
    const accepted = await onSend(
      content,
      attached.map((i) => i.id),
    )
    if (!accepted) {
      setText((now) => now || content)
      setImages((now) => (now.length ? now : attached))
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void submit()
    }
  }

  async function pick(files: FileList | null) {
    for (const f of [...(files ?? [])].slice(0, MAX_IMAGES - images.length)) {
      try {
        const uploaded = await upload.mutateAsync(f)
        setImages((list) => [...list, uploaded].slice(0, MAX_IMAGES))
      } catch {
        // shown by the request layer
      }
    }
    if (file.current) file.current.value = ''
  }

  return (
    <div className="border-t border-zinc-800 p-3">
      {vision && images.length > 0 && (
        <div className="mb-2 flex flex-wrap gap-2">
          {images.map((img) => (
            <div key={img.id} className="relative">
              <img src={img.url} alt="待发送的图片" className="size-14 rounded-lg object-cover" />
              <button
                type="button"
                aria-label="移除图片"
                className="absolute -top-1 -right-1 size-5 rounded-full bg-zinc-700 text-xs text-white"
                onClick={() => setImages((list) => list.filter((i) => i.id !== img.id))}
              >
                ×
              </button>
            </div>
          ))}
        </div>
      )}
      <div className="flex items-end gap-2">
        {vision && (
          <>
            <input ref={file} type="file" accept="image/png,image/jpeg,image/webp,image/gif" multiple hidden onChange={(e) => pick(e.target.files)} />
            <Button
              variant="secondary"
              aria-label="添加图片"
              loading={upload.isPending}
              disabled={busy || images.length >= MAX_IMAGES}
              onClick={() => file.current?.click()}
            >
              图片
            </Button>
          </>
        )}
        <Textarea
          aria-label="输入消息"
          placeholder="输入消息，Enter 发送，Shift+Enter 换行"
          rows={2}
          value={text}
          maxLength={8000}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-48 min-h-11 resize-none"
        />
        {busy ? (
          <Button variant="danger" onClick={onStop}>
            停止
          </Button>
        ) : (
          <Button onClick={() => void submit()} disabled={!text.trim() || disabled || upload.isPending}>
            发送
          </Button>
        )}
      </div>
      <p className="mt-1.5 text-xs text-zinc-500">{hint}</p>
    </div>
  )
}
