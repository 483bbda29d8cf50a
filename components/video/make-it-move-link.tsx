'use client'

import Link from 'next/link'
import { useModels } from '@/lib/api-client/resources/models'
import { hasVideoModel } from '@/components/create/use-catalog'

/** 让它动起来: one of the user's pictures as the first frame of a clip on /ai_video (shown only while a video model is enabled). */
export function MakeItMoveLink({ taskId, index }: { taskId: string; index: number }) {
  if (hasVideoModel(useModels().data) !== true) return null
  return (
    <Link
      href={`/ai_video?from=${encodeURIComponent(taskId)}&n=${index}`}
      className="inline-flex h-8 items-center rounded-lg bg-zinc-800 px-3 text-sm text-white transition hover:bg-zinc-700"
      data-testid="make-it-move"
    >
      让它动起来
    </Link>
  )
}
