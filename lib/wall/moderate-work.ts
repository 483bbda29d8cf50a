import 'server-only'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { WallStatus } from '@/lib/generated/prisma/enums'
import { conflict, notFound } from '@/lib/http/app-error'
import { pageArgs, type Page } from '@/lib/http/pagination'

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
}): Promise<Page<AdminWallWork>> {
  const where: Prisma.WallWorkWhereInput = {
    ...(query.status ? { status: query.status } : {}),
    ...(query.featured ? { featured: true } : {}),
    ...(query.reported ? { reports: { gt: 0 } } : {}),
  }
  const orderBy: Prisma.WallWorkOrderByWithRelationInput[] = query.reported
    ? [{ reports: 'desc' }, { id: 'desc' }]
    : query.featured
      ? [{ sort: 'desc' }, { listedAt: 'desc' }, { id: 'desc' }]
      : query.status === 'PENDING'
        ? [{ createdAt: 'asc' }, { id: 'asc' }]
        : [{ createdAt: 'desc' }, { id: 'desc' }]
  const [rows, total] = await Promise.all([
    db().wallWork.findMany({
      where,
      orderBy,
      ...pageArgs(query),
      select: {
        id: true,
        taskId: true,
        status: true,
        featured: true,
        sort: true,
        modelType: true,
        modelName: true,
        thumbUrl: true,
        imageUrl: true,
        width: true,
        height: true,
        prompt: true,
        likes: true,
        reports: true,
        createdAt: true,
        listedAt: true,
        user: { select: { id: true, name: true } },
      },
    }),
    db().wallWork.count({ where }),
  ])
  return {
    list: rows.map(({ modelType, modelName, user, ...r }) => ({ ...r, type: modelType, model: modelName, author: user })),
    total,
  }
}

/** Approves a submission (or brings a hidden work back): it goes on the wall as its newest work. */
export async function approveWork(actor: SessionUser, ip: string, id: string): Promise<{ id: string; status: WallStatus }> {
  return setStatus(actor, ip, id, 'APPROVED')
}

/** Hides a work from the wall, explore and collections (a report, a bad submission); its owner keeps the result. */
export async function hideWork(actor: SessionUser, ip: string, id: string): Promise<{ id: string; status: WallStatus }> {
  return setStatus(actor, ip, id, 'HIDDEN')
}

async function setStatus(actor: SessionUser, ip: string, id: string, status: WallStatus) {
  return db().$transaction(async (tx) => {
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
  })
}

/** The admin's order of a recommended work (higher first on the landing page). */
export async function setWorkSort(actor: SessionUser, ip: string, id: string, sort: number): Promise<{ id: string; sort: number }> {
  return db().$transaction(async (tx) => {
    const work = await tx.wallWork.findUnique({ where: { id }, select: { sort: true } })
    if (!work) throw notFound('作品不存在')
    await tx.wallWork.update({ where: { id }, data: { sort } })
    await recordAudit(tx, actor, ip, { action: 'wall.sort', targetType: 'WallWork', targetId: id, before: work.sort, after: sort })
    return { id, sort }
  })
}

/**
 * The console's recommend / un_recommend (docs/PRODUCT.md §7.3), by task id: features a published work (and puts it
 * on the wall if it was waiting), or takes the feature off. A private result cannot be
 * recommended: its owner has not chosen to show it.
 */
export async function setRecommended(actor: SessionUser, ip: string, taskId: string, isRecommended: boolean): Promise<{ id: string; isRecommended: boolean }> {
  return db().$transaction(async (tx) => {
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
  })
}
