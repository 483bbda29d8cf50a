'use client'

import { cn } from '@/lib/ui/cn'
import { Field, Input, Select } from '@/components/ui/field'
import { SAMPLERS, SIZE_PRESETS, type SdParams } from './sd-params'

type Props = { value: SdParams; onChange: (next: Partial<SdParams>) => void; showSize?: boolean }

/** Size presets, count, and the advanced knobs (steps, CFG, seed, sampler). */
export function ParamsFields({ value, onChange, showSize = true }: Props) {
  return (
    <div className="space-y-4">
      {showSize && (
        <div>
          <div className="mb-1.5 text-sm font-medium text-zinc-300">尺寸</div>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {SIZE_PRESETS.map((s) => {
              const isActive = s.width === value.width && s.height === value.height
              return (
                <button
                  key={s.label}
                  type="button"
                  aria-pressed={isActive}
                  onClick={() => onChange({ width: s.width, height: s.height })}
                  className={cn(
                    'rounded-lg px-2 py-2 text-xs ring-1 transition',
                    isActive ? 'bg-brand-600/25 text-brand-300 ring-brand-500' : 'bg-zinc-900 text-zinc-400 ring-zinc-700 hover:text-white',
                  )}
                >
                  <div className="font-medium">{s.label}</div>
                  <div className="text-[10px] opacity-70">
                    {s.width}×{s.height}
                  </div>
                </button>
              )
            })}
          </div>
        </div>
      )}
      <Field label="生成数量" htmlFor="count">
        <div className="flex gap-2" id="count">
          {[1, 2, 3, 4].map((n) => (
            <button
              key={n}
              type="button"
              aria-pressed={value.count === n}
              onClick={() => onChange({ count: n })}
              className={cn(
                'h-9 w-12 rounded-lg text-sm ring-1 transition',
                value.count === n ? 'bg-brand-600/25 text-brand-300 ring-brand-500' : 'bg-zinc-900 text-zinc-400 ring-zinc-700 hover:text-white',
              )}
            >
              {n} 张
            </button>
          ))}
        </div>
      </Field>
      <details className="rounded-xl bg-zinc-900/60 p-4 ring-1 ring-zinc-800">
        <summary className="cursor-pointer text-sm text-zinc-300">高级参数</summary>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Field label={`采样步数：${value.steps}`} htmlFor="steps">
            <input
              id="steps"
              type="range"
              min={1}
              max={60}
              value={value.steps}
              onChange={(e) => onChange({ steps: Number(e.target.value) })}
              className="w-full accent-brand-500"
            />
          </Field>
          <Field label={`提示词相关性（CFG）：${value.cfgScale}`} htmlFor="cfg">
            <input
              id="cfg"
              type="range"
              min={1}
              max={20}
              step={0.5}
              value={value.cfgScale}
              onChange={(e) => onChange({ cfgScale: Number(e.target.value) })}
              className="w-full accent-brand-500"
            />
          </Field>
          <Field label="随机种子" htmlFor="seed" help="-1 表示随机">
            <Input
              id="seed"
              type="number"
              value={value.seed}
              onChange={(e) => onChange({ seed: e.target.value === '' ? -1 : Math.trunc(Number(e.target.value)) })}
            />
          </Field>
          <Field label="采样器" htmlFor="sampler">
            <Select id="sampler" value={value.sampler ?? ''} onChange={(e) => onChange({ sampler: e.target.value || null })}>
              <option value="">默认</option>
              {SAMPLERS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </details>
    </div>
  )
}
