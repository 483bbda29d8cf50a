import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import type { Prisma } from '@/lib/generated/prisma/client'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { ADMIN_TASK_SELECT, type AdminTaskFilter, type AdminTaskRow } from './admin-task-views'
import { toTaskView } from './task-views'

/** GET /api/admin/tasks: every task, newest first, filtered by type, status, user and date. */
export async function listTasksForAdmin(query: TPageQuery & AdminTaskFilter): Promise<Page<AdminTaskRow>> {
  const user = query.user?.trim()
  const where: Prisma.TaskWhereInput = {
    ...(query.type ? { type: query.type } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(user
      ? {
          user: {
            OR: [
              { username: { contains: escapeLike(user), mode: 'insensitive' } },
              { name: { contains: escapeLike(user), mode: 'insensitive' } },
              { id: user },
            ],
          },
        }
      : {}),
    ...(query.from || query.to ? { createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) } } : {}),
  }
  const [rows, total] = await Promise.all([
    db().task.findMany({ where, select: ADMIN_TASK_SELECT, orderBy: { createdAt: 'desc' }, ...pageArgs(query) }),
    db().task.count({ where }),
  ])
  return { list: rows.map((r) => ({ ...toTaskView(r), user: r.user })), total }
}
