'use client'

import { useState } from 'react'
import { Field, Input } from '@/components/ui/field'

/** A cover image URL with a small live preview. */
export function CoverField({ id, value, onChange }: { id: string; value: string; onChange: (next: string) => void }) {
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null)
  const url = value.trim()
  const isBroken = url !== '' && brokenUrl === url
  return (
    <Field
      label="封面图片地址"
      htmlFor={id}
      help={isBroken ? undefined : '可留空；填写 https:// 开头的地址或站内 /files/ 路径'}
      error={isBroken ? '图片无法加载，请检查地址' : null}
    >
      <div className="flex items-center gap-3">
        <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} maxLength={500} placeholder="https://" />
        <div className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-zinc-800 ring-1 ring-zinc-700">
          {url && !isBroken ? (
            <img src={url} alt="封面预览" className="size-full object-cover" onError={() => setBrokenUrl(url)} />
          ) : (
            <span className="text-[10px] text-zinc-500">无封面</span>
          )}
        </div>
      </div>
    </Field>
  )
}

/** A cover thumbnail for table rows, or '-' when none. */
export function CoverThumb({ url, alt }: { url: string | null; alt: string }) {
  if (!url) return <span className="text-zinc-500">-</span>
  return <img src={url} alt={alt} loading="lazy" className="size-10 rounded-md object-cover ring-1 ring-zinc-700" />
}
