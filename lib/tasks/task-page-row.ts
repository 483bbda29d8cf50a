import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status, TaskStage, TaskType, WallStatus } from '@/lib/generated/prisma/enums'
import { toTaskView, type TaskView } from './task-views'

/** A task list page's columns: the task (t) as its view shows it, its wall entry (w) and its model (m). */
export const TASK_PAGE_COLUMNS = Prisma.sql`
  t."id", t."type", t."status", t."stage", t."progress", t."params", t."chargedPoints", t."errorMessage", t."results", t."videos",
  t."parentId", t."action", t."buttons", t."previewUrl", t."isRecommended", w."id" AS "wallWorkId", w."status" AS "wallWorkStatus",
  w."featured" AS "wallWorkFeatured", t."refundedAt", t."createdAt", t."startedAt", t."finishedAt", m."id" AS "modelId", m."name" AS "modelName"`

export type TaskPageRow = {
  id: string
  type: TaskType
  status: Status
  stage: TaskStage
  progress: number
  params: unknown
  chargedPoints: number
  errorMessage: string | null
  results: unknown
  videos: unknown
  parentId: string | null
  action: string | null
  buttons: unknown
  previewUrl: string | null
  isRecommended: boolean
  wallWorkId: string | null
  wallWorkStatus: WallStatus | null
  wallWorkFeatured: boolean | null
  refundedAt: Date | null
  createdAt: Date
  startedAt: Date | null
  finishedAt: Date | null
  modelId: string
  modelName: string
}

// The keys in the order the Prisma select gave them, so the answer stays the same bytes.
export function taskViewOfRow({ wallWorkId, wallWorkStatus, wallWorkFeatured, modelId, modelName, ...t }: TaskPageRow): TaskView {
  return toTaskView({
    id: t.id,
    type: t.type,
    status: t.status,
    stage: t.stage,
    progress: t.progress,
    params: t.params,
    chargedPoints: t.chargedPoints,
    errorMessage: t.errorMessage,
    results: t.results,
    videos: t.videos,
    parentId: t.parentId,
    action: t.action,
    buttons: t.buttons,
    previewUrl: t.previewUrl,
    isRecommended: t.isRecommended,
    wallWork: wallWorkId ? { id: wallWorkId, status: wallWorkStatus!, featured: wallWorkFeatured! } : null,
    refundedAt: t.refundedAt,
    createdAt: t.createdAt,
    startedAt: t.startedAt,
    finishedAt: t.finishedAt,
    model: { id: modelId, name: modelName },
  })
}
