'use client'

import Link from 'next/link'
import { useRef, useState } from 'react'
import { canEnterAdmin } from '@/lib/auth/permissions'
import { RequireUser } from '@/components/app/require-user'
import { Card, PageTitle } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { MjForm, type MjMode } from './mj-form'
import { useSameAs } from '@/components/create/use-same-as'
import { MjHistory } from './mj-history'
import { MjTaskPanel } from './mj-task-panel'
import { useMjModels } from '@/lib/api-client/resources/mj'

/** Where the form would be, before an operator has added a Midjourney model. */
function NoMjModel({ canManage }: { canManage: boolean }) {
  return (
    <Card className="flex min-h-72 flex-col items-center justify-center gap-3 text-center">
      <h2 className="text-base font-medium text-white">还没有可用的 Midjourney 模型</h2>
      <p className="max-w-md text-sm leading-relaxed text-zinc-400">
        本站暂未接入 Midjourney，可以先用
        <Link href="/text2img_v2" className="mx-1 text-brand-300 hover:text-brand-200">
          AI 创作
        </Link>
        生成图片。
      </p>
      <p className="max-w-md text-xs leading-relaxed text-zinc-500">
        管理员可以在
        {canManage ? (
          <Link href="/admin/model_mana" className="mx-1 text-brand-300 hover:text-brand-200">
            模型管理
          </Link>
        ) : (
          <span className="mx-1 text-zinc-400">后台“模型管理”（/admin/model_mana）</span>
        )}
        中添加类型为 Midjourney 的模型并启用。
      </p>
    </Card>
  )
}

/** /mj: the Midjourney form, the task in view (progress, grid, buttons) and the user's task trees. */
export function MjStudio() {
  const [mode, setMode] = useState<MjMode>('IMAGINE')
  const [prompt, setPrompt] = useState('')
  useSameAs((work) => (setMode('IMAGINE'), setPrompt(work.prompt)))
  const [taskId, setTaskId] = useState<string | null>(null)
  const panel = useRef<HTMLDivElement>(null)
  const { data: models, isError: modelsFailed } = useMjModels()

  // On a phone the task sits below the long form (or above the history): bring it into view.
  const open = (id: string) => {
    setTaskId(id)
    if (!window.matchMedia('(min-width: 1024px)').matches) panel.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
  }

  const applyPrompt = (text: string) => {
    setPrompt(text)
    setMode('IMAGINE')
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }

  return (
    <RequireUser>
      {(profile) => (
        <div className="space-y-8">
          <PageTitle>Midjourney</PageTitle>
          {models === undefined && !modelsFailed ? (
            <Loading />
          ) : models?.length === 0 ? (
            <NoMjModel canManage={canEnterAdmin(profile.role)} />
          ) : (
            <>
              <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
                <MjForm mode={mode} onModeChange={setMode} prompt={prompt} onPromptChange={setPrompt} onSubmitted={open} />
                <div ref={panel} className="scroll-mt-28 lg:sticky lg:top-20 lg:self-start">
                  <MjTaskPanel taskId={taskId} onOpen={open} onUsePrompt={applyPrompt} onDeleted={() => setTaskId(null)} />
                </div>
              </div>
              <MjHistory activeId={taskId} onOpen={open} />
            </>
          )}
        </div>
      )}
    </RequireUser>
  )
}
