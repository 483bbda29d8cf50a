import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'
import type { Status, TaskStage, TaskType, WallStatus } from '@/lib/generated/prisma/enums'
import type { Listed } from '@/lib/db/read-rows'
import type { TaskView } from './task-views'

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
  refundedAt: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  modelId: string
  modelName: string
}

/**
 * The view of a page row, written out key by key in the order the Prisma select gave them
 * (so the answer stays the same bytes). One object literal per row, not rest-and-spread
 * copies: on a list page those copies and the JSON of the objects they make cost the web
 * process more than the database round trip (docs/DECISIONS.md, "Speed: prepared
 * statements, reads on pg").
 */
export function taskViewOfRow(t: TaskPageRow): Listed<TaskView> {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    stage: t.stage,
    progress: t.progress,
    params: (t.params ?? {}) as TaskView['params'],
    chargedPoints: t.chargedPoints,
    errorMessage: t.errorMessage,
    results: (t.results ?? []) as TaskView['results'],
    videos: (t.videos ?? []) as TaskView['videos'],
    parentId: t.parentId,
    action: t.action,
    buttons: (t.buttons ?? []) as TaskView['buttons'],
    previewUrl: t.previewUrl,
    isRecommended: t.isRecommended,
    wallWork: t.wallWorkId ? { id: t.wallWorkId, status: t.wallWorkStatus!, featured: t.wallWorkFeatured! } : null,
    refundedAt: t.refundedAt,
    createdAt: t.createdAt,
    startedAt: t.startedAt,
    finishedAt: t.finishedAt,
    model: { id: t.modelId, name: t.modelName },
  }
}
