'use client'

import Link from 'next/link'
import { useSearchParams } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { useModels, type ModelOption } from '@/lib/api-client/resources/models'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useSubmitTask, useTaskDetail, type TaskJson } from '@/lib/api-client/resources/tasks'
import type { WallWorkJson } from '@/lib/api-client/resources/wall'
import { videoPrice } from '@/lib/models/video-options'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, PageTitle } from '@/components/ui/card'
import { Field, Select, Textarea } from '@/components/ui/field'
import { TaskHistory } from '@/components/create/task-history'
import { MemberNote } from '@/components/create/model-price'
import { useMemberCost } from '@/components/create/use-member-cost'
import { useSameAs } from '@/components/create/use-same-as'
import { FramePicker, type Frame } from './frame-picker'
import { VideoResult } from './video-result'

type VideoType = 'VIDEO_TEXT2VIDEO' | 'VIDEO_IMG2VIDEO'
const HISTORY_TYPES = ['VIDEO_TEXT2VIDEO', 'VIDEO_IMG2VIDEO']

/** /ai_video: a clip from a prompt, or from a first (and last) frame; the price before submitting; progress, player and the user's clips. */
export function VideoStudio() {
  return <RequireUser>{() => <VideoStudioForm />}</RequireUser>
}

function VideoStudioForm() {
  const search = useSearchParams()
  const { data: models, isLoading } = useModels()
  const { profile } = useProfile()
  const [prompt, setPrompt] = useState('')
  // undefined until the user picks or removes one: then the picture of 让它动起来 (?from=) is the first frame.
  const [picked, setFirst] = useState<Frame | null | undefined>(undefined)
  const [last, setLast] = useState<Frame | null>(null)
  const [modelId, setModelId] = useState<string | null>(null)
  const [choice, setChoice] = useState<{ durationSec?: number; ratio?: string; resolution?: string }>({})
  const [taskId, setTaskId] = useState<string | null>(null)
  const [busy, run] = useAction()
  const submit = useSubmitTask()
  const movingPicture = usePictureToMove(search.get('from'), Number(search.get('n') ?? 0))
  const first = picked === undefined ? movingPicture : picked
  useSameAs(fillFromWall)

  /** 做同款 of a clip on the wall (?same=): its prompt, and its length where this model offers it. */
  function fillFromWall(work: WallWorkJson) {
    setPrompt(work.prompt)
    const seconds = work.video?.durationSec
    if (seconds) setChoice((c) => ({ ...c, durationSec: Math.round(seconds) }))
  }

  const type: VideoType = first ? 'VIDEO_IMG2VIDEO' : 'VIDEO_TEXT2VIDEO'
  const offered = (models ?? []).filter((m) => m.video && typeof m.prices[type] === 'number')
  const model = offered.find((m) => m.id === modelId) ?? offered[0]
  const options = model?.video
  const durationSec = options && choice.durationSec && options.durations.includes(choice.durationSec) ? choice.durationSec : options?.durations[0]
  const ratio = options && choice.ratio && options.ratios.includes(choice.ratio) ? choice.ratio : options?.ratios[0]
  const resolution =
    options && choice.resolution && options.resolutions.includes(choice.resolution)
      ? choice.resolution
      : options?.resolutions.includes('720p')
        ? '720p'
        : options?.resolutions[0]
  const cost = model && durationSec ? (videoPrice(model.prices, type, durationSec) ?? 0) : 0
  const canEnd = Boolean(options?.lastFrame && first)

  async function generate(e: FormEvent) {
    e.preventDefault()
    if (!prompt.trim()) return toast.error('请输入提示词')
    if (!model || !durationSec) return toast.error('暂无可用的视频模型')
    await run(async () => {
      const task = await submit({
        type,
        modelId: model.id,
        params: {
          prompt: prompt.trim(),
          durationSec,
          ratio,
          resolution,
          ...(first ? { imageId: first.ref } : {}),
          ...(first && last && canEnd ? { lastImageId: last.ref } : {}),
        },
      })
      setTaskId(task.id)
    })
  }

  /** 做同款: the form takes the clip's settings (and frames) to adjust before making another. */
  function reuse(task: TaskJson) {
    const p = task.params as Record<string, unknown>
    setPrompt(String(p.prompt ?? ''))
    setModelId(task.model.id)
    setChoice({ durationSec: Number(p.durationSec), ratio: String(p.ratio), resolution: String(p.resolution) })
    setFirst(typeof p.imageId === 'string' ? { ref: p.imageId, url: String(p.imageUrl ?? '') } : null)
    setLast(typeof p.lastImageId === 'string' ? { ref: p.lastImageId, url: String(p.lastImageUrl ?? '') } : null)
    window.scrollTo({ top: 0, behavior: 'smooth' })
    toast.success('已填入这条视频的设置')
  }

  return (
    <div className="space-y-8">
      <PageTitle>AI 视频</PageTitle>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card>
          <form onSubmit={generate} className="space-y-5">
            <Field label="提示词" htmlFor="video-prompt" help={`${prompt.length}/2000`}>
              <Textarea
                id="video-prompt"
                rows={4}
                maxLength={2000}
                value={prompt}
                onChange={(e) => setPrompt(e.target.value)}
                placeholder="描述画面和动作，例如：一只橘猫在窗台上伸懒腰，阳光洒进来，镜头缓缓推近"
              />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <FramePicker label="首帧（可选）" hint="让这张图动起来" value={first} onChange={setFirst} />
              {canEnd && <FramePicker label="尾帧（可选）" hint="视频结束的画面" value={last} onChange={setLast} />}
            </div>
            {isLoading ? null : !model || !options ? (
              <p className="rounded-lg bg-amber-500/10 px-3 py-2 text-sm text-amber-300">暂无可用的视频模型，请联系管理员配置。</p>
            ) : (
              <>
                {offered.length > 1 && (
                  <Field label="模型" htmlFor="video-model">
                    <Select id="video-model" value={model.id} onChange={(e) => setModelId(e.target.value)}>
                      {offered.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.name}
                        </option>
                      ))}
                    </Select>
                  </Field>
                )}
                <div className="grid grid-cols-3 gap-3">
                  <Field label="时长" htmlFor="video-duration">
                    <Select id="video-duration" value={durationSec} onChange={(e) => setChoice((c) => ({ ...c, durationSec: Number(e.target.value) }))}>
                      {options.durations.map((d) => (
                        <option key={d} value={d}>
                          {d} 秒
                        </option>
                      ))}
                    </Select>
                  </Field>
                  <Field label="比例" htmlFor="video-ratio" help={first ? '跟随首帧' : undefined}>
                    <Select id="video-ratio" value={ratio} disabled={Boolean(first)} onChange={(e) => setChoice((c) => ({ ...c, ratio: e.target.value }))}>
                      {options.ratios.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </Select>
                  </Field>
                  <Field label="分辨率" htmlFor="video-resolution">
                    <Select id="video-resolution" value={resolution} onChange={(e) => setChoice((c) => ({ ...c, resolution: e.target.value }))}>
                      {options.resolutions.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </Select>
                  </Field>
                </div>
                <PriceLine model={model} type={type} fullCost={cost} points={profile?.points} />
              </>
            )}
            <Button type="submit" size="lg" className="w-full" loading={busy} disabled={!model}>
              生成视频
            </Button>
          </form>
        </Card>
        <div className="lg:sticky lg:top-20 lg:self-start">
          <VideoResult taskId={taskId} onNewTask={setTaskId} onReuse={reuse} />
        </div>
      </div>
      <TaskHistory types={HISTORY_TYPES} onOpen={(t) => setTaskId(t.id)} onActiveDeleted={() => setTaskId(null)} activeId={taskId} />
    </div>
  )
}

/** What the clip costs (per clip, plus per second where the model charges so) against the user's points. */
function PriceLine({ model, type, fullCost, points }: { model: ModelOption; type: VideoType; fullCost: number; points: number | undefined }) {
  const { cost, discounted } = useMemberCost(fullCost)
  const perSecond = model.prices.VIDEO_PER_SECOND
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-zinc-400">
        <span className="mr-2 text-zinc-500">{model.name} ·</span>
        本次消耗{' '}
        <span data-testid="task-cost" className="font-semibold text-white">
          {cost}
        </span>{' '}
        积分
        {discounted && <MemberNote fullCost={fullCost} />}
        {perSecond ? (
          <span className="ml-1 text-xs text-zinc-500">
            （每条 {model.prices[type]} + 每秒 {perSecond}）
          </span>
        ) : null}
      </span>
      {points !== undefined && (
        <span className="text-zinc-500">
          当前 {points} 积分
          {points < cost && (
            <Link href="/my_cards" className="ml-2 text-brand-300 hover:underline">
              去兑换
            </Link>
          )}
        </span>
      )}
    </div>
  )
}

/** /ai_video?from=<task id>&n=<index> (让它动起来 under a picture): that picture, to be the first frame. */
function usePictureToMove(taskId: string | null, index: number): Frame | null {
  const { data: task } = useTaskDetail(taskId, () => false)
  const image = task?.results[index]
  return task && image ? { ref: `task:${task.id}:${index}`, url: image.thumbUrl || image.url } : null
}
