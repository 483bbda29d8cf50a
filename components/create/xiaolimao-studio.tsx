'use client'

import { useState, type FormEvent } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { cn } from '@/lib/ui/cn'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, EmptyState } from '@/components/ui/card'
import { Field, Textarea } from '@/components/ui/field'
import { ParamsFields } from './params-fields'
import { DEFAULT_SD_PARAMS, type SdParams } from './sd-params'
import { TaskHistory } from './task-history'
import { TaskResult } from './task-result'
import { useCustomModels } from '@/lib/api-client/resources/custom-models'
import { useSubmitTask } from '@/lib/api-client/resources/tasks'

/** 小狸猫: pick one of the operator's style presets, add a few words, generate (SD_XIAOLIMAO). */
export function XiaolimaoStudio() {
  const { data: presets } = useCustomModels()
  const { profile } = useProfile()
  const [presetId, setPresetId] = useState<number | null>(null)
  const [params, setParams] = useState<SdParams>(DEFAULT_SD_PARAMS)
  const [taskId, setTaskId] = useState<string | null>(null)
  const [busy, run] = useAction()
  const submit = useSubmitTask()
  const preset = presets?.find((p) => p.id === presetId) ?? presets?.[0]

  async function generate(e: FormEvent) {
    e.preventDefault()
    if (!preset) return toast.error('请选择风格')
    await run(async () => {
      const { prompt, negativePrompt, width, height, count, seed } = params
      const task = await submit({
        type: 'SD_XIAOLIMAO',
        params: {
          customModelId: preset.id,
          ...(prompt.trim() ? { prompt: prompt.trim() } : {}),
          ...(negativePrompt.trim() ? { negativePrompt: negativePrompt.trim() } : {}),
          width,
          height,
          count,
          seed,
        },
      })
      setTaskId(task.id)
    })
  }

  if (presets && presets.length === 0) return <EmptyState>管理员还没有配置风格模型</EmptyState>
  return (
    <RequireUser>
      {() => (
        <div className="space-y-8">
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <form onSubmit={generate} className="space-y-5">
                <div>
                  <div className="mb-2 text-sm font-medium text-zinc-300">选择风格</div>
                  <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                    {presets?.map((p) => (
                      <button
                        key={p.id}
                        type="button"
                        aria-pressed={preset?.id === p.id}
                        onClick={() => setPresetId(p.id)}
                        className={cn(
                          'overflow-hidden rounded-xl bg-zinc-900 text-left ring-1 transition',
                          preset?.id === p.id ? 'ring-2 ring-brand-500' : 'ring-zinc-800 hover:ring-zinc-600',
                        )}
                      >
                        {p.cover ? (
                          <img src={p.cover} alt={p.name} className="aspect-square w-full object-cover" />
                        ) : (
                          <div className="flex aspect-square items-center justify-center bg-gradient-to-br from-brand-600/40 to-accent-400/20 text-2xl font-semibold text-white">
                            {p.name.slice(0, 2)}
                          </div>
                        )}
                        <div className="p-2 text-xs">
                          <div className="truncate text-zinc-200">{p.name}</div>
                          <div className="text-zinc-500">{p.price} 积分/张</div>
                        </div>
                      </button>
                    ))}
                  </div>
                </div>
                <Field label="补充描述（可选）" htmlFor="xlm-prompt" help={preset?.triggerWords ? `会自动加上风格词：${preset.triggerWords}` : undefined}>
                  <Textarea
                    id="xlm-prompt"
                    rows={3}
                    maxLength={2000}
                    value={params.prompt}
                    onChange={(e) => setParams({ ...params, prompt: e.target.value })}
                    placeholder="例如：在樱花树下看书的少女"
                  />
                </Field>
                <ParamsFields value={params} onChange={(next) => setParams((p) => ({ ...p, ...next }))} />
                {preset && (
                  <div className="flex justify-between text-sm text-zinc-400">
                    <span>
                      本次消耗 <span className="font-semibold text-white">{preset.price * params.count}</span> 积分
                    </span>
                    {profile && <span className="text-zinc-500">当前 {profile.points} 积分</span>}
                  </div>
                )}
                <Button type="submit" size="lg" className="w-full" loading={busy}>
                  立即生成
                </Button>
              </form>
            </Card>
            <div className="lg:sticky lg:top-20 lg:self-start">
              <TaskResult taskId={taskId} onNewTask={setTaskId} placeholder="选一个风格，生成的图片会显示在这里" />
            </div>
          </div>
          <TaskHistory types={['SD_XIAOLIMAO']} onOpen={(t) => setTaskId(t.id)} onActiveDeleted={() => setTaskId(null)} activeId={taskId} />
        </div>
      )}
    </RequireUser>
  )
}
