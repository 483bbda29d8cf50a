'use client'

import { useState } from 'react'
import { cn } from '@/lib/ui/cn'
import { Field, Textarea } from '@/components/ui/field'
import { usePromptTemplates } from '@/lib/api-client/resources/prompts'

/** Prompt and negative prompt, with the curated templates (/admin/prompt_mana) one click away. */
export function PromptFields({
  prompt,
  negativePrompt,
  onChange,
  promptLabel = '提示词',
}: {
  prompt: string
  negativePrompt: string
  onChange: (next: { prompt?: string; negativePrompt?: string }) => void
  promptLabel?: string
}) {
  const { data: templates } = usePromptTemplates()
  const [category, setCategory] = useState<string | null>(null)
  const categories = [...new Set((templates ?? []).map((t) => t.category))]
  const shown = (templates ?? []).filter((t) => t.category === (category ?? categories[0]))

  return (
    <div className="space-y-4">
      <Field label={promptLabel} htmlFor="prompt" help={`${prompt.length}/2000`}>
        <Textarea
          id="prompt"
          rows={4}
          maxLength={2000}
          value={prompt}
          onChange={(e) => onChange({ prompt: e.target.value })}
          placeholder="描述你想要的画面，例如：一只戴着宇航员头盔的橘猫，漂浮在星空中，插画风格"
        />
      </Field>
      {templates && templates.length > 0 && (
        <div>
          <div className="mb-2 flex flex-wrap items-center gap-1.5 text-xs">
            <span className="text-zinc-500">灵感模板：</span>
            {categories.map((c) => (
              <button
                key={c}
                type="button"
                onClick={() => setCategory(c)}
                className={cn(
                  'rounded-full px-2.5 py-1 transition',
                  (category ?? categories[0]) === c ? 'bg-brand-600/30 text-brand-300' : 'bg-zinc-800 text-zinc-400 hover:text-white',
                )}
              >
                {c}
              </button>
            ))}
          </div>
          <div className="flex flex-wrap gap-2">
            {shown.map((t) => (
              <button
                key={t.id}
                type="button"
                title={t.prompt}
                onClick={() => onChange({ prompt: t.prompt, ...(t.negativePrompt ? { negativePrompt: t.negativePrompt } : {}) })}
                className="rounded-lg bg-zinc-800/80 px-3 py-1.5 text-xs text-zinc-200 ring-1 ring-zinc-700 transition hover:ring-brand-500"
              >
                {t.title}
              </button>
            ))}
          </div>
        </div>
      )}
      <Field label="反向提示词（可选）" htmlFor="negative-prompt">
        <Textarea
          id="negative-prompt"
          rows={2}
          maxLength={2000}
          value={negativePrompt}
          onChange={(e) => onChange({ negativePrompt: e.target.value })}
          placeholder="不希望出现的内容，例如：低质量，模糊，多余的手指"
        />
      </Field>
    </div>
  )
}
