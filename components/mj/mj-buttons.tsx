'use client'

import { useState } from 'react'
import type { ResultButton } from '@/lib/generation/backends/types'
import { classifyCustomId, MJ_PRICE_LABELS, type MjAction } from '@/lib/mj/actions'
import { cn } from '@/lib/ui/cn'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { useModels } from '@/lib/api-client/resources/models'
import type { TaskJson } from '@/lib/api-client/resources/tasks'
import { CustomZoomDialog, VaryRegionDialog } from './mj-modal-dialogs'
import { usePressButton, type PressBody } from '@/lib/api-client/resources/mj'

export type Offered = ResultButton & { action: MjAction; price: number }

/**
 * The buttons of a finished task that can run here (known to us, priced by its model),
 * and pressing one: a child task, shown by `onPressed`.
 */
export function useOfferedButtons(task: TaskJson, onPressed: (child: TaskJson) => void) {
  const { data: models } = useModels()
  const press = usePressButton()
  const [busy, run] = useAction()
  const [pressing, setPressing] = useState<string | null>(null)
  const prices = models?.find((m) => m.id === task.model.id)?.prices ?? {}
  const offered = task.buttons.flatMap((b): Offered[] => {
    const action = classifyCustomId(b.customId)
    const price = action ? prices[action.priceKey] : undefined
    return action && typeof price === 'number' ? [{ ...b, action, price }] : []
  })
  const start = (button: Offered, extra: Omit<PressBody, 'customId'> = {}) =>
    run(async () => {
      setPressing(button.customId)
      try {
        onPressed(await press(task.id, { customId: button.customId, ...extra }))
      } finally {
        setPressing(null)
      }
    })
  return { offered, start, busy, pressing }
}

/** The grid's U1-U4 / 🔄 / V1-V4 sit in Midjourney's two rows of five. */
const isGridRow = (buttons: Offered[]) => buttons.every((b) => ['UPSCALE', 'VARIATION', 'REROLL'].includes(b.action.kind)) && buttons.length <= 10

/**
 * The buttons the proxy returned with a finished task, labelled as it gave them; each
 * starts a child task. A describe's per-suggestion buttons are shown with their suggestion.
 */
export function MjButtons({ task, onPressed }: { task: TaskJson; onPressed: (child: TaskJson) => void }) {
  const { offered: all, start, busy, pressing } = useOfferedButtons(task, onPressed)
  const [modal, setModal] = useState<Offered | null>(null)
  const offered = all.filter((b) => b.action.kind !== 'PROMPT_IMAGINE')
  if (all.length === 0) return null

  const costs = [...new Map(all.map((b) => [b.action.priceKey, `${MJ_PRICE_LABELS[b.action.priceKey]} ${b.price}`])).values()]
  const image = task.results[0]
  const prompt = String(task.params.modalPrompt ?? task.params.prompt ?? '')
  const confirm = (button: Offered) => async (extra: Omit<PressBody, 'customId'>) => {
    if (await start(button, extra)) setModal(null)
  }

  return (
    <div className="space-y-2">
      {offered.length > 0 && (
        <div className={cn(isGridRow(offered) ? 'grid grid-cols-5 gap-2' : 'flex flex-wrap gap-2')} role="group" aria-label="Midjourney 操作">
          {offered.map((b) => (
            <button
              key={b.customId}
              type="button"
              title={`${b.action.label} · ${b.price} 积分`}
              disabled={busy}
              onClick={() => (b.action.isModal ? setModal(b) : start(b))}
              className={cn(
                'inline-flex h-9 min-w-0 items-center justify-center gap-1 rounded-lg px-3 text-sm font-medium ring-1 ring-inset transition disabled:opacity-50',
                b.style === 1 ? 'bg-brand-600/30 text-brand-100 ring-brand-500/60' : 'bg-zinc-800 text-zinc-100 ring-zinc-700 hover:bg-zinc-700',
                pressing === b.customId && 'animate-pulse',
              )}
            >
              {[b.emoji, b.label].filter(Boolean).join(' ') || b.action.label}
            </button>
          ))}
        </div>
      )}
      <p className="text-xs text-zinc-500">积分：{costs.join(' · ')}</p>
      {modal?.action.kind === 'VARY_REGION' && image && (
        <VaryRegionDialog open image={image} prompt={prompt} cost={modal.price} onClose={() => setModal(null)} onConfirm={confirm(modal)} />
      )}
      {modal?.action.kind === 'CUSTOM_ZOOM' && (
        <CustomZoomDialog open prompt={prompt} cost={modal.price} onClose={() => setModal(null)} onConfirm={confirm(modal)} />
      )}
    </div>
  )
}

/** A describe's four suggestions: put one in the form, or imagine it at once (its PicReader button). */
export function MjDescribed({
  task,
  prompts,
  onPressed,
  onUsePrompt,
}: {
  task: TaskJson
  prompts: string[]
  onPressed: (child: TaskJson) => void
  onUsePrompt: (prompt: string) => void
}) {
  const { offered, start, busy } = useOfferedButtons(task, onPressed)
  return (
    <ol className="space-y-2" aria-label="识图结果">
      {prompts.map((text, i) => {
        const imagine = offered.find((b) => b.customId === `MJ::Job::PicReader::${i + 1}`)
        return (
          <li key={i} className="space-y-2 rounded-lg bg-zinc-950/60 p-3 text-sm text-zinc-300 ring-1 ring-zinc-800">
            <p className="break-words">
              <span className="mr-1.5 text-zinc-500">{i + 1}.</span>
              {text}
            </p>
            <div className="flex justify-end gap-2">
              <Button size="sm" variant="ghost" onClick={() => onUsePrompt(text)}>
                用这条
              </Button>
              {imagine && (
                <Button size="sm" variant="secondary" disabled={busy} onClick={() => start(imagine)}>
                  直接生成（{imagine.price} 积分）
                </Button>
              )}
            </div>
          </li>
        )
      })}
    </ol>
  )
}
