'use client'

import { useState, type FormEvent } from 'react'
import { useMjModels, useRefreshMj } from '@/lib/api-client/resources/mj'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { useSubmitTask } from '@/lib/api-client/resources/tasks'
import type { Uploaded } from '@/lib/api-client/resources/uploads'
import { composeMjPrompt, hasCjk } from '@/lib/mj/compose-prompt'
import { cn } from '@/lib/ui/cn'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Textarea } from '@/components/ui/field'
import { ModelAndPrice } from '@/components/create/model-price'
import { MjImagesField } from './mj-images-field'
import { INITIAL_MJ_OPTIONS, MjOptionsFields, type MjOptionsState } from './mj-options'

export type MjMode = 'IMAGINE' | 'BLEND' | 'DESCRIBE'

const MODES: Array<{ value: MjMode; label: string; priceKey: string; submit: string }> = [
  { value: 'IMAGINE', label: '文生图', priceKey: 'MJ_IMAGINE', submit: '开始生成' },
  { value: 'BLEND', label: '混图', priceKey: 'MJ_BLEND', submit: '开始混图' },
  { value: 'DESCRIBE', label: '识图', priceKey: 'MJ_DESCRIBE', submit: '开始识图' },
]
const DIMENSIONS = [
  { value: 'PORTRAIT', label: '竖图 2:3' },
  { value: 'SQUARE', label: '方图 1:1' },
  { value: 'LANDSCAPE', label: '横图 3:2' },
] as const

/** The /mj form: imagine (prompt, options, reference images), blend or describe; price and submit. */
export function MjForm({
  mode,
  onModeChange,
  prompt,
  onPromptChange,
  onSubmitted,
}: {
  mode: MjMode
  onModeChange: (m: MjMode) => void
  prompt: string
  onPromptChange: (p: string) => void
  onSubmitted: (taskId: string) => void
}) {
  const [options, setOptions] = useState<MjOptionsState>(INITIAL_MJ_OPTIONS)
  const [references, setReferences] = useState<Uploaded[]>([])
  const [blendImages, setBlendImages] = useState<Uploaded[]>([])
  const [describeImage, setDescribeImage] = useState<Uploaded[]>([])
  const [dimensions, setDimensions] = useState<(typeof DIMENSIONS)[number]['value']>('SQUARE')
  const [modelId, setModelId] = useState<string | null>(null)
  const [busy, run] = useAction()
  const submit = useSubmitTask()
  const refreshMj = useRefreshMj()
  const { data: mjModels } = useMjModels()
  const { data: config } = useSiteInfo()
  const speeds = mjModels?.find((m) => m.id === modelId)?.speeds ?? []
  const current = MODES.find((m) => m.value === mode)!
  const isTranslated = Boolean(config?.TRANSLATE_ENABLED)

  function request(): { type: string; params: Record<string, unknown> } | string {
    if (mode === 'BLEND')
      return blendImages.length < 2
        ? '混图需要 2-5 张图片'
        : { type: 'MJ_IMG2IMG', params: { mjAction: 'BLEND', referenceImageIds: blendImages.map((i) => i.id), dimensions } }
    if (mode === 'DESCRIBE')
      return describeImage.length !== 1 || !describeImage[0]
        ? '请上传要识别的图片'
        : { type: 'MJ_IMG2IMG', params: { mjAction: 'DESCRIBE', referenceImageIds: [describeImage[0].id] } }
    if (!prompt.trim()) return '请输入提示词'
    const imagine = { ...options, speed: speeds.includes(options.speed!) ? options.speed : null, prompt: prompt.trim() }
    return references.length
      ? { type: 'MJ_IMG2IMG', params: { ...imagine, referenceImageIds: references.map((r) => r.id) } }
      : { type: 'MJ_TEXT2IMG', params: imagine }
  }

  async function send(e: FormEvent) {
    e.preventDefault()
    const body = request()
    if (typeof body === 'string') return toast.error(body)
    // A failure is shown by the request layer (or the 积分不足 dialog).
    await run(async () => {
      const task = await submit({ ...body, modelId: modelId ?? undefined })
      await refreshMj()
      onSubmitted(task.id)
    })
  }

  return (
    <Card className="lg:self-start">
      <form onSubmit={send} className="space-y-5">
        <div role="tablist" aria-label="Midjourney 模式" className="grid grid-cols-3 gap-1 rounded-xl bg-zinc-950/60 p-1 ring-1 ring-zinc-800">
          {MODES.map((m) => (
            <button
              key={m.value}
              type="button"
              role="tab"
              aria-selected={mode === m.value}
              onClick={() => onModeChange(m.value)}
              className={cn('rounded-lg py-2 text-sm transition', mode === m.value ? 'bg-zinc-800 font-medium text-white' : 'text-zinc-400 hover:text-white')}
            >
              {m.label}
            </button>
          ))}
        </div>

        {mode === 'IMAGINE' && (
          <>
            <Field
              label="提示词"
              htmlFor="mj-prompt"
              help={
                isTranslated ? '可以直接写中文，提交前会自动翻译成英文' : hasCjk(prompt) ? 'Midjourney 只识别英文，请用英文描述画面' : `${prompt.length}/2000`
              }
            >
              <Textarea
                id="mj-prompt"
                rows={4}
                maxLength={2000}
                value={prompt}
                onChange={(e) => onPromptChange(e.target.value)}
                placeholder="例如：a cozy cabin in a snowy forest at dusk, warm light, cinematic"
              />
            </Field>
            <MjOptionsFields value={options} onChange={(next) => setOptions((o) => ({ ...o, ...next }))} speeds={speeds} />
            <MjImagesField label="参考图（可选）" hint="作为图片提示放在提示词前，最多 5 张" max={5} value={references} onChange={setReferences} />
            {prompt.trim() && (
              <div
                className="rounded-lg bg-zinc-950/70 px-3 py-2 font-mono text-xs leading-relaxed text-zinc-400 ring-1 ring-zinc-800"
                data-testid="mj-command"
              >
                <span className="text-zinc-500">/imagine </span>
                {references.length > 0 && <span className="text-zinc-500">[{references.length} 张参考图] </span>}
                {composeMjPrompt(prompt, { ...options, speed: speeds.includes(options.speed!) ? options.speed : null }, options.rawParams)}
              </div>
            )}
          </>
        )}

        {mode === 'BLEND' && (
          <>
            <MjImagesField label="混图图片" hint="上传 2-5 张图片，Midjourney 会把它们融合成新的画面" max={5} value={blendImages} onChange={setBlendImages} />
            <div>
              <div className="mb-2 text-sm font-medium text-zinc-300">画面比例</div>
              <div className="flex flex-wrap gap-2" role="group" aria-label="混图比例">
                {DIMENSIONS.map((d) => (
                  <button
                    key={d.value}
                    type="button"
                    aria-pressed={dimensions === d.value}
                    onClick={() => setDimensions(d.value)}
                    className={cn(
                      'rounded-lg px-3 py-1.5 text-sm ring-1 ring-inset transition',
                      dimensions === d.value ? 'bg-brand-600/25 text-brand-200 ring-brand-500/60' : 'bg-zinc-900 text-zinc-400 ring-zinc-700 hover:text-white',
                    )}
                  >
                    {d.label}
                  </button>
                ))}
              </div>
            </div>
          </>
        )}

        {mode === 'DESCRIBE' && (
          <MjImagesField
            label="要识别的图片"
            hint="Midjourney 会为这张图写出 4 条提示词，可一键拿来生成"
            max={1}
            value={describeImage}
            onChange={setDescribeImage}
          />
        )}

        <ModelAndPrice taskType={current.priceKey} modelId={modelId} onModelChange={setModelId} count={1} />
        <Button type="submit" size="lg" className="w-full" loading={busy}>
          {current.submit}
        </Button>
      </form>
    </Card>
  )
}
