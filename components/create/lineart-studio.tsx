'use client'

import { useState } from 'react'
import { cn } from '@/lib/ui/cn'
import { Field } from '@/components/ui/field'
import { ImageUploadField, type Uploaded } from './image-upload-field'
import { fitSize } from './sd-params'
import { SdStudio } from './sd-studio'

const STYLES = [
  { value: 'standard', label: '写实线稿' },
  { value: 'anime', label: '动漫线稿' },
] as const

/** 线稿上色: upload black-on-white line art, describe the colours (SD_IMGCONTROLNET). */
export function LineartStudio({ title }: { title?: string }) {
  const [lineart, setLineart] = useState<Uploaded | null>(null)
  const [style, setStyle] = useState<'standard' | 'anime'>('standard')
  const [weight, setWeight] = useState(1)

  const fields = (
    <div className="space-y-4">
      <ImageUploadField label="线稿" hint="白底黑线的线稿效果最好，最大 10MB" value={lineart} onChange={setLineart} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <div className="mb-1.5 text-sm font-medium text-zinc-300">线稿类型</div>
          <div className="flex gap-2">
            {STYLES.map((s) => (
              <button
                key={s.value}
                type="button"
                aria-pressed={style === s.value}
                onClick={() => setStyle(s.value)}
                className={cn(
                  'h-9 flex-1 rounded-lg text-sm ring-1 transition',
                  style === s.value ? 'bg-brand-600/25 text-brand-300 ring-brand-500' : 'bg-zinc-900 text-zinc-400 ring-zinc-700',
                )}
              >
                {s.label}
              </button>
            ))}
          </div>
        </div>
        <Field label={`线条约束强度：${weight.toFixed(1)}`} htmlFor="control-weight">
          <input
            id="control-weight"
            type="range"
            min={0.5}
            max={1.5}
            step={0.1}
            value={weight}
            onChange={(e) => setWeight(Number(e.target.value))}
            className="w-full accent-brand-500"
          />
        </Field>
      </div>
    </div>
  )

  return (
    <SdStudio
      title={title}
      type="SD_IMGCONTROLNET"
      extraFields={fields}
      showSize={false}
      extraParams={() =>
        lineart ? { controlImageId: lineart.id, lineStyle: style, controlWeight: weight, ...fitSize(lineart.width, lineart.height) } : '请先上传线稿'
      }
      placeholder="上传线稿并描述颜色，上色结果会显示在这里"
    />
  )
}
