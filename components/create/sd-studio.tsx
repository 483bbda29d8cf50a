'use client'

import { useState, type FormEvent, type ReactNode } from 'react'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, PageTitle } from '@/components/ui/card'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { ModelAndPrice } from './model-price'
import { ParamsFields } from './params-fields'
import { PromptFields } from './prompt-fields'
import { DEFAULT_SD_PARAMS, type SdParams } from './sd-params'
import { TaskHistory } from './task-history'
import { TaskResult } from './task-result'
import { useSameAs } from './use-same-as'
import { useSubmitTask } from '@/lib/api-client/resources/tasks'

type Props = {
  title?: string
  type: string
  /** Extra inputs above the prompt (uploads, mode options). */
  extraFields?: ReactNode
  /** The extra params those inputs give (may upload first), or an error message when something is missing. */
  extraParams?: () => Promise<Record<string, unknown> | string> | Record<string, unknown> | string
  showSize?: boolean
  historyTypes?: string[]
  placeholder?: string
}

/** A creation page for the SD task types: form, price, live result and the user's works. */
export function SdStudio({ title, type, extraFields, extraParams, showSize = true, historyTypes, placeholder = '生成的图片会显示在这里' }: Props) {
  const [params, setParams] = useState<SdParams>(DEFAULT_SD_PARAMS)
  const [modelId, setModelId] = useState<string | null>(null)
  const [taskId, setTaskId] = useState<string | null>(null)
  const [busy, run] = useAction()
  const submit = useSubmitTask()
  useSameAs((work) =>
    setParams((p) => ({
      ...p,
      prompt: work.prompt,
      negativePrompt: work.negativePrompt,
      ...(work.steps ? { steps: work.steps } : {}),
      ...(work.cfgScale ? { cfgScale: work.cfgScale } : {}),
      ...(work.sampler ? { sampler: work.sampler } : {}),
    })),
  )

  async function generate(e: FormEvent) {
    e.preventDefault()
    if (!params.prompt.trim()) return toast.error('请输入提示词')
    // A failure is shown by the request layer (or the 积分不足 dialog).
    await run(async () => {
      const extra = (await extraParams?.()) ?? {}
      if (typeof extra === 'string') return toast.error(extra)
      const task = await submit({
        type,
        modelId: modelId ?? undefined,
        params: { ...params, prompt: params.prompt.trim(), negativePrompt: params.negativePrompt.trim(), ...extra },
      })
      setTaskId(task.id)
    })
  }

  return (
    <RequireUser>
      {() => (
        <div className="space-y-8">
          {title && <PageTitle>{title}</PageTitle>}
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <Card>
              <form onSubmit={generate} className="space-y-5">
                {extraFields}
                <PromptFields prompt={params.prompt} negativePrompt={params.negativePrompt} onChange={(next) => setParams((p) => ({ ...p, ...next }))} />
                <ParamsFields value={params} onChange={(next) => setParams((p) => ({ ...p, ...next }))} showSize={showSize} />
                <ModelAndPrice taskType={type} modelId={modelId} onModelChange={setModelId} count={params.count} />
                <Button type="submit" size="lg" className="w-full" loading={busy}>
                  立即生成
                </Button>
              </form>
            </Card>
            <div className="lg:sticky lg:top-20 lg:self-start">
              <TaskResult taskId={taskId} onNewTask={setTaskId} placeholder={placeholder} />
            </div>
          </div>
          <TaskHistory types={historyTypes ?? [type]} onOpen={(t) => setTaskId(t.id)} onActiveDeleted={() => setTaskId(null)} activeId={taskId} />
        </div>
      )}
    </RequireUser>
  )
}
