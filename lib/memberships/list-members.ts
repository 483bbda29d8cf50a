import 'server-only'
import { db } from '@/lib/db'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import type { Page, TPageQuery } from '@/lib/http/pagination'

/** /admin/subscription_mana: the members whose plan of this kind still runs, soonest to end first. */
export async function listActiveMembers(kind: MembershipKind, query: TPageQuery, now = new Date()): Promise<Page<unknown>> {
  const where = { kind, expiresAt: { gt: now } }
  const [list, total] = await Promise.all([
    db().membership.findMany({
      where,
      orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        kind: true,
        planName: true,
        expiresAt: true,
        dailyPoints: true,
        discountPercent: true,
        dailyMessages: true,
        user: { select: { id: true, name: true, username: true } },
      },
    }),
    db().membership.count({ where }),
  ])
  return { list, total }
}
