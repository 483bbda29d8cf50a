import 'server-only'
import { db, dbPool } from '@/lib/db'
import { afterWriting } from '@/lib/signals/answer-cache'
import { isoText, jsonObject, jsonRowText } from '@/lib/db/json-rows'
import { pageLimit, readRows, type Listed } from '@/lib/db/read-rows'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { Prisma } from '@/lib/generated/prisma/client'
import type { WallStatus } from '@/lib/generated/prisma/enums'
import { conflict, notFound } from '@/lib/http/app-error'
import { jsonPage, type JsonPageRow } from '@/lib/http/json-list'
import { pageArgs, type Page } from '@/lib/http/pagination'
import { lockTask } from '@/lib/db/lock-task'

export type AdminWallWork = {
  id: string
  taskId: string
  status: WallStatus
  featured: boolean
  sort: number
  type: string
  model: string
  thumbUrl: string
  imageUrl: string
  /** A clip's MP4 (type VIDEO); the images are then its poster. */
  videoUrl: string | null
  width: number
  height: number
  prompt: string
  likes: number
  reports: number
  author: { id: string; name: string }
  createdAt: Date
  listedAt: Date | null
}

/** The console's list: submissions waiting (oldest first), the wall, hidden works; the recommended ones in their order; or the reported ones, most reported first. */
export async function listWallForAdmin(query: {
  page: number
  pageSize: number
  status?: WallStatus
  featured?: string
  reported?: string
}): Promise<Page<Listed<AdminWallWork>>> {
  const conditions = [
    query.status ? Prisma.sql`w."status" = ${query.status}::"WallStatus"` : null,
    query.featured ? Prisma.sql`w."featured"` : null,
    query.reported ? Prisma.sql`w."reports" > 0` : null,
  ].filter((c) => c !== null)
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty
  const order = query.reported
    ? Prisma.sql`w."reports" DESC, w."id" DESC`
    : query.featured
      ? Prisma.sql`w."sort" DESC, w."listedAt" DESC, w."id" DESC`
      : query.status === 'PENDING'
        ? Prisma.sql`w."createdAt" ASC, w."id" ASC`
        : Prisma.sql`w."createdAt" DESC, w."id" DESC`
  const { skip, take } = pageArgs(query)
  const counted = [
    query.status ? Prisma.sql`c."status" = ${query.status}::"WallStatus"` : null,
    query.featured ? Prisma.sql`c."featured"` : null,
    query.reported ? Prisma.sql`c."reported"` : null,
  ].filter((c) => c !== null)
  const countWhere = counted.length ? Prisma.sql`WHERE ${Prisma.join(counted, ' AND ')}` : Prisma.empty
  // One statement: the exact total from the counters the triggers on "WallWork" keep in step
  // with every write (migration list_counts, at most 12 rows summed), and the page with its
  // authors, cut on the index order before the join. An empty page is one row of the total.
  const rows = await readRows<JsonPageRow[]>(
    Prisma.sql`
    SELECT t."total", ${wallRowJson} AS "row"
    FROM (SELECT coalesce(sum(c."n"), 0)::int AS "total" FROM "WallWorkCount" c ${countWhere}) t
    LEFT JOIN LATERAL (SELECT * FROM "WallWork" w ${where} ORDER BY ${order} LIMIT ${pageLimit(take)} OFFSET ${skip}) w ON true
    LEFT JOIN LATERAL (SELECT "id", "name" FROM "User" WHERE "id" = w."userId" LIMIT 1) u ON true
    ORDER BY ${order}`,
    dbPool('generic'),
  )
  return jsonPage<Listed<AdminWallWork>>(rows)
}

const wallRowJson = jsonRowText<Listed<AdminWallWork>>(Prisma.sql`w."id" IS NOT NULL`, {
  id: Prisma.sql`w."id"`,
  taskId: Prisma.sql`w."taskId"`,
  status: Prisma.sql`w."status"`,
  featured: Prisma.sql`w."featured"`,
  sort: Prisma.sql`w."sort"`,
  thumbUrl: Prisma.sql`w."thumbUrl"`,
  imageUrl: Prisma.sql`w."imageUrl"`,
  videoUrl: Prisma.sql`w."videoUrl"`,
  width: Prisma.sql`w."width"`,
  height: Prisma.sql`w."height"`,
  prompt: Prisma.sql`w."prompt"`,
  likes: Prisma.sql`w."likes"`,
  reports: Prisma.sql`w."reports"`,
  createdAt: isoText(Prisma.sql`w."createdAt"`),
  listedAt: isoText(Prisma.sql`w."listedAt"`),
  type: Prisma.sql`w."modelType"`,
  model: Prisma.sql`w."modelName"`,
  author: jsonObject({ id: Prisma.sql`u."id"`, name: Prisma.sql`u."name"` }),
})

/** Approves a submission (or brings a hidden work back): it goes on the wall as its newest work. */
export async function approveWork(actor: SessionUser, ip: string, id: string): Promise<{ id: string; status: WallStatus }> {
  return setStatus(actor, ip, id, 'APPROVED')
}

/** Hides a work from the wall, explore and collections (a report, a bad submission); its owner keeps the result. */
export async function hideWork(actor: SessionUser, ip: string, id: string): Promise<{ id: string; status: WallStatus }> {
  return setStatus(actor, ip, id, 'HIDDEN')
}

async function setStatus(actor: SessionUser, ip: string, id: string, status: WallStatus) {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      const found = await tx.wallWork.findUnique({ where: { id }, select: { taskId: true } })
      if (!found) throw notFound('作品不存在')
      // The task's row first, as publishing and deleting take it: then the work as it is now.
      await lockTask(tx, found.taskId)
      const work = await tx.wallWork.findUnique({ where: { id }, select: { status: true, taskId: true } })
      if (!work) throw notFound('作品不存在')
      if (work.status !== status) {
        const listed = status === 'APPROVED' ? { listedAt: new Date() } : { featured: false }
        await tx.wallWork.update({ where: { id }, data: { status, ...listed } })
        if (status === 'HIDDEN') await tx.task.update({ where: { id: work.taskId }, data: { isRecommended: false } })
        await recordAudit(tx, actor, ip, {
          action: status === 'APPROVED' ? 'wall.approve' : 'wall.hide',
          targetType: 'WallWork',
          targetId: id,
          before: work.status,
          after: status,
        })
      }
      return { id, status }
    }),
  )
}

/** The admin's order of a recommended work (higher first on the landing page). */
export async function setWorkSort(actor: SessionUser, ip: string, id: string, sort: number): Promise<{ id: string; sort: number }> {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      const work = await tx.wallWork.findUnique({ where: { id }, select: { sort: true } })
      if (!work) throw notFound('作品不存在')
      await tx.wallWork.update({ where: { id }, data: { sort } })
      await recordAudit(tx, actor, ip, { action: 'wall.sort', targetType: 'WallWork', targetId: id, before: work.sort, after: sort })
      return { id, sort }
    }),
  )
}

/**
 * The console's recommend / un_recommend (docs/PRODUCT.md §7.3), by task id: features a published work (and puts it
 * on the wall if it was waiting), or takes the feature off. A private result cannot be
 * recommended: its owner has not chosen to show it.
 */
export async function setRecommended(actor: SessionUser, ip: string, taskId: string, isRecommended: boolean): Promise<{ id: string; isRecommended: boolean }> {
  return afterWriting(
    'wall',
    db().$transaction(async (tx) => {
      await lockTask(tx, taskId)
      const task = await tx.task.findUnique({ where: { id: taskId }, select: { status: true, wallWork: { select: { id: true, status: true } } } })
      if (!task) throw notFound('任务不存在')
      if (isRecommended) {
        if (task.status !== 'SUCCESS') throw conflict('只有生成成功的作品可以推荐')
        if (!task.wallWork) throw conflict('该作品未被作者公开，不能推荐到作品墙')
        if (task.wallWork.status === 'HIDDEN') throw conflict('该作品已隐藏，请先在作品墙管理中恢复')
        const listed = task.wallWork.status === 'PENDING' ? { status: 'APPROVED' as const, listedAt: new Date() } : {}
        await tx.wallWork.update({ where: { id: task.wallWork.id }, data: { featured: true, ...listed } })
      } else if (task.wallWork) {
        await tx.wallWork.update({ where: { id: task.wallWork.id }, data: { featured: false } })
      }
      await tx.task.update({ where: { id: taskId }, data: { isRecommended } })
      await recordAudit(tx, actor, ip, { action: isRecommended ? 'task.recommend' : 'task.unrecommend', targetType: 'Task', targetId: taskId })
      return { id: taskId, isRecommended }
    }),
  )
}
