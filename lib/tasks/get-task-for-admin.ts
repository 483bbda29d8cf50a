import 'server-only'
import { isoText, jsonObject } from '@/lib/db/json-rows'
import { readRows, type Listed } from '@/lib/db/read-rows'
import { Prisma } from '@/lib/generated/prisma/client'
import type { LedgerKind } from '@/lib/generated/prisma/enums'
import { notFound } from '@/lib/http/app-error'
import { TASK_VIEW_FIELDS } from './task-page-row'
import type { TaskView } from './task-views'

type LedgerRow = { id: number; kind: LedgerKind; amount: number; balanceAfter: number; reference: string; createdAt: Date }

/** A task as the console opens it: its view, its owner, the run's details and its ledger rows. */
export type AdminTaskDetail = TaskView & {
  user: { id: string; username: string; name: string }
  upstreamId: string | null
  attempts: number
  maxAttempts: number
  errorCode: string | null
  backendLog: Prisma.JsonValue
  priceSnapshot: Prisma.JsonValue
  deadlineAt: Date
  leaseOwner: string | null
  ledger: Listed<LedgerRow>[]
}

/**
 * Key by key in the order the console's Prisma select gave them (ADMIN_TASK_SELECT, then the
 * detail's columns, then the ledger): the task (t), its wall entry (w), model (m) and owner (u).
 */
const TASK_DETAIL_JSON = jsonObject<Listed<AdminTaskDetail>>({
  ...TASK_VIEW_FIELDS,
  user: jsonObject({ id: Prisma.sql`u."id"`, username: Prisma.sql`u."username"`, name: Prisma.sql`u."name"` }),
  upstreamId: Prisma.sql`t."upstreamId"`,
  attempts: Prisma.sql`t."attempts"`,
  maxAttempts: Prisma.sql`t."maxAttempts"`,
  errorCode: Prisma.sql`t."errorCode"`,
  backendLog: Prisma.sql`t."backendLog"`,
  priceSnapshot: Prisma.sql`t."priceSnapshot"`,
  deadlineAt: isoText(Prisma.sql`t."deadlineAt"`),
  leaseOwner: Prisma.sql`t."leaseOwner"`,
  // The task's charge, refund and shortfall, by the unique index on "reference", oldest first.
  ledger: Prisma.sql`coalesce((SELECT json_agg(l ORDER BY l."id") FROM (
    SELECT "id", "kind", "amount", "balanceAfter", "reference", ${isoText(Prisma.sql`"createdAt"`)} AS "createdAt" FROM "LedgerEntry"
    WHERE "reference" IN ('task:' || t."id" || ':charge', 'task:' || t."id" || ':refund', 'task:' || t."id" || ':shortfall')) l), '[]')`,
})

/**
 * Everything about one task for the console: parameters, backend answers, errors and its
 * ledger rows, in one statement whose one column PostgreSQL writes as the answer's JSON.
 */
export async function getTaskForAdmin(id: string): Promise<Listed<AdminTaskDetail>> {
  const [found] = await readRows<{ task: Listed<AdminTaskDetail> }[]>(Prisma.sql`
    SELECT ${TASK_DETAIL_JSON} AS "task"
    FROM (SELECT * FROM "Task" WHERE "id" = ${id}) t
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "AiModel" WHERE "id" = t."modelId" LIMIT 1) m ON true
    LEFT JOIN LATERAL (SELECT "id", "username", "name" FROM "User" WHERE "id" = t."userId" LIMIT 1) u ON true
    LEFT JOIN LATERAL (SELECT "id", "status", "featured" FROM "WallWork" WHERE "taskId" = t."id" LIMIT 1) w ON true`)
  if (!found) throw notFound('任务不存在')
  return found.task
}
