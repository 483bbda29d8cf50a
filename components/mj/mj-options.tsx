'use client'

import { cn } from '@/lib/ui/cn'
import { Field, Input, Select } from '@/components/ui/field'
import { MJ_ASPECT_RATIOS, MJ_QUALITIES, MJ_SPEED_LABELS, MJ_VERSIONS, NIJI_VERSIONS, type MjOptions, type MjSpeed } from '@/lib/mj/compose-prompt'

export type MjOptionsState = Required<MjOptions> & { rawParams: string }

/** Midjourney's own defaults: an option left here is not sent. */
const DEFAULT_STYLIZE = 100
const DEFAULT_CHAOS = 0

export const INITIAL_MJ_OPTIONS: MjOptionsState = {
  aspectRatio: '1:1',
  version: null,
  niji: null,
  stylize: null,
  chaos: null,
  quality: null,
  speed: null,
  rawParams: '',
}

const chip = (isOn: boolean) =>
  cn(
    'rounded-lg px-3 py-1.5 text-sm ring-1 ring-inset transition',
    isOn ? 'bg-brand-600/25 text-brand-200 ring-brand-500/60' : 'bg-zinc-900 text-zinc-400 ring-zinc-700 hover:text-white',
  )

/** Aspect ratio, model version (MJ or Niji), stylize, chaos, quality, speed and raw parameters. */
export function MjOptionsFields({ value, onChange, speeds }: { value: MjOptionsState; onChange: (next: Partial<MjOptionsState>) => void; speeds: MjSpeed[] }) {
  const version = value.niji ? `niji:${value.niji}` : value.version ? `v:${value.version}` : ''
  const stylize = value.stylize ?? DEFAULT_STYLIZE
  const chaos = value.chaos ?? DEFAULT_CHAOS

  return (
    <div className="space-y-5">
      <div>
        <div className="mb-2 text-sm font-medium text-zinc-300">画面比例</div>
        <div className="flex flex-wrap gap-2" role="group" aria-label="画面比例">
          {MJ_ASPECT_RATIOS.map((ratio) => (
            <button
              key={ratio}
              type="button"
              aria-pressed={value.aspectRatio === ratio}
              className={chip(value.aspectRatio === ratio)}
              onClick={() => onChange({ aspectRatio: ratio })}
            >
              {ratio}
            </button>
          ))}
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="模型版本" htmlFor="mj-version">
          <Select
            id="mj-version"
            value={version}
            onChange={(e) => {
              const [kind, v] = e.target.value.split(':')
              onChange({ version: kind === 'v' ? v : null, niji: kind === 'niji' ? v : null })
            }}
          >
            <option value="">默认版本</option>
            {MJ_VERSIONS.map((v) => (
              <option key={v} value={`v:${v}`}>
                Midjourney V{v}
              </option>
            ))}
            {NIJI_VERSIONS.map((v) => (
              <option key={v} value={`niji:${v}`}>
                Niji {v}（动漫风格）
              </option>
            ))}
          </Select>
        </Field>
        <Field label="画质" htmlFor="mj-quality">
          <Select id="mj-quality" value={value.quality ?? ''} onChange={(e) => onChange({ quality: e.target.value ? Number(e.target.value) : null })}>
            <option value="">默认画质</option>
            {MJ_QUALITIES.map((q) => (
              <option key={q} value={q}>
                --q {q}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={`风格化 ${stylize}${value.stylize === null ? '（默认）' : ''}`} htmlFor="mj-stylize" help="越高越艺术化，越低越贴近提示词">
          <input
            id="mj-stylize"
            type="range"
            min={0}
            max={1000}
            step={10}
            value={stylize}
            onChange={(e) => onChange({ stylize: Number(e.target.value) === DEFAULT_STYLIZE ? null : Number(e.target.value) })}
            className="w-full accent-brand-500"
          />
        </Field>
        <Field label={`混乱度 ${chaos}${value.chaos === null ? '（默认）' : ''}`} htmlFor="mj-chaos" help="越高四张图差异越大">
          <input
            id="mj-chaos"
            type="range"
            min={0}
            max={100}
            value={chaos}
            onChange={(e) => onChange({ chaos: Number(e.target.value) === DEFAULT_CHAOS ? null : Number(e.target.value) })}
            className="w-full accent-brand-500"
          />
        </Field>
      </div>

      {speeds.length > 0 && (
        <div>
          <div className="mb-2 text-sm font-medium text-zinc-300">速度模式</div>
          <div className="flex flex-wrap gap-2" role="group" aria-label="速度模式">
            <button type="button" aria-pressed={value.speed === null} className={chip(value.speed === null)} onClick={() => onChange({ speed: null })}>
              默认
            </button>
            {speeds.map((speed) => (
              <button
                key={speed}
                type="button"
                aria-pressed={value.speed === speed}
                className={chip(value.speed === speed)}
                onClick={() => onChange({ speed })}
              >
                {MJ_SPEED_LABELS[speed]} --{speed}
              </button>
            ))}
          </div>
        </div>
      )}

      <Field label="额外参数（可选）" htmlFor="mj-raw" help="直接写 Midjourney 参数，会覆盖上面的同名设置，例如 --no text --tile --seed 42">
        <Input id="mj-raw" value={value.rawParams} maxLength={500} placeholder="--no text" onChange={(e) => onChange({ rawParams: e.target.value })} />
      </Field>
    </div>
  )
}
