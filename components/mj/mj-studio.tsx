'use client'

import { useRef, useState } from 'react'
import { RequireUser } from '@/components/app/require-user'
import { PageTitle } from '@/components/ui/card'
import { MjForm, type MjMode } from './mj-form'
import { MjHistory } from './mj-history'
import { MjTaskPanel } from './mj-task-panel'

/** /mj: the Midjourney form, the task in view (progress, grid, buttons) and the user's task trees. */
export function MjStudio() {
  const [mode, setMode] = useState<MjMode>('IMAGINE')
  const [prompt, setPrompt] = useState('')
  const [taskId, setTaskId] = useState<string | null>(null)
  const panel = useRef<HTMLDivElement>(null)

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
      {() => (
        <div className="space-y-8">
          <PageTitle>Midjourney</PageTitle>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <MjForm mode={mode} onModeChange={setMode} prompt={prompt} onPromptChange={setPrompt} onSubmitted={open} />
            <div ref={panel} className="scroll-mt-28 lg:sticky lg:top-20 lg:self-start">
              <MjTaskPanel taskId={taskId} onOpen={open} onUsePrompt={applyPrompt} />
            </div>
          </div>
          <MjHistory activeId={taskId} onOpen={open} />
        </div>
      )}
    </RequireUser>
  )
}
