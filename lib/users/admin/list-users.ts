import 'server-only'
import { db } from '@/lib/db'
import { escapeLike } from '@/lib/db/like'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { Role } from '@/lib/generated/prisma/enums'
import { pageArgs, type Page, type TPageQuery } from '@/lib/http/pagination'
import { ADMIN_USER_SELECT, toAdminUserRow, type AdminUserRow } from '../user-views'

/** The console's user list: newest first, searchable by username, name or mobile. */
export async function listUsers(query: TPageQuery & { keyword?: string; role?: Role }): Promise<Page<AdminUserRow>> {
  const keyword = query.keyword?.trim() ? escapeLike(query.keyword.trim()) : undefined
  const where: Prisma.UserWhereInput = {
    ...(query.role ? { role: query.role } : {}),
    ...(keyword
      ? {
          OR: [
            { username: { contains: keyword, mode: 'insensitive' } },
            { name: { contains: keyword, mode: 'insensitive' } },
            { mobile: { contains: keyword } },
          ],
        }
      : {}),
  }
  const [rows, total] = await Promise.all([
    db().user.findMany({ where, select: ADMIN_USER_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...pageArgs(query) }),
    db().user.count({ where }),
  ])
  return { list: rows.map(toAdminUserRow), total }
}
