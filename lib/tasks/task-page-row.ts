import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'
import { isoText, jsonObject, jsonObjectOrNull, jsonRowText, type JsonFields } from '@/lib/db/json-rows'
import type { Listed } from '@/lib/db/read-rows'
import type { TaskView } from './task-views'

/**
 * The task (t) as its view shows it, key by key in the order the Prisma select gives them,
 * with its wall entry (w) and its model (m): a list's row, and the start of the console's detail.
 */
export const TASK_VIEW_FIELDS: JsonFields<Listed<TaskView>> = {
  id: Prisma.sql`t."id"`,
  type: Prisma.sql`t."type"`,
  status: Prisma.sql`t."status"`,
  stage: Prisma.sql`t."stage"`,
  progress: Prisma.sql`t."progress"`,
  params: Prisma.sql`coalesce(t."params", '{}')`,
  chargedPoints: Prisma.sql`t."chargedPoints"`,
  errorMessage: Prisma.sql`t."errorMessage"`,
  results: Prisma.sql`coalesce(t."results", '[]')`,
  videos: Prisma.sql`coalesce(t."videos", '[]')`,
  parentId: Prisma.sql`t."parentId"`,
  action: Prisma.sql`t."action"`,
  buttons: Prisma.sql`coalesce(t."buttons", '[]')`,
  previewUrl: Prisma.sql`t."previewUrl"`,
  isRecommended: Prisma.sql`t."isRecommended"`,
  wallWork: jsonObjectOrNull(Prisma.sql`w."id" IS NOT NULL`, { id: Prisma.sql`w."id"`, status: Prisma.sql`w."status"`, featured: Prisma.sql`w."featured"` }),
  refundedAt: isoText(Prisma.sql`t."refundedAt"`),
  createdAt: isoText(Prisma.sql`t."createdAt"`),
  startedAt: isoText(Prisma.sql`t."startedAt"`),
  finishedAt: isoText(Prisma.sql`t."finishedAt"`),
  model: jsonObject({ id: Prisma.sql`m."id"`, name: Prisma.sql`m."name"` }),
}

/** A task list page's row as JSON text; null for the empty page's row of the total alone. */
export const TASK_ROW_JSON = jsonRowText<Listed<TaskView>>(Prisma.sql`t."id" IS NOT NULL`, TASK_VIEW_FIELDS)
