// The console's members list, GET /api/admin/memberships: the members whose plan of a kind
// still runs, soonest to end first, key for key as the Prisma query it replaced answered.
import { beforeAll, describe, expect, it } from 'vitest'
import * as memberships from '@/app/api/admin/memberships/route'
import { db } from '@/lib/db'
import type { MembershipKind } from '@/lib/generated/prisma/enums'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail, expectOk } from '../helpers/expect-response'
import { quickUsers } from '../helpers/ledger-fixtures'

let admin: Awaited<ReturnType<typeof createUser>>

const DAY = 24 * 3600 * 1000

beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
  const users = await quickUsers(12)
  // Both kinds; some ended; two ending at the same instant (ordered by id); unlimited messages (null) and a limit.
  const same = new Date(Date.now() + 5 * DAY + 123)
  await db().membership.createMany({
    data: users.flatMap((u, i) => [
      {
        userId: u.id,
        kind: 'IMAGE' as const,
        planName: `图片月卡 ${i}`,
        expiresAt: i === 3 || i === 7 ? same : new Date(Date.now() + (i % 4 === 1 ? -1 : 1) * (i + 1) * DAY + i * 7),
        dailyPoints: 10 * i,
        discountPercent: i % 3,
      },
      ...(i % 2
        ? [
            {
              userId: u.id,
              kind: 'CHAT' as const,
              planName: `聊天卡 ${i}`,
              expiresAt: new Date(Date.now() + (i === 5 ? -2 : 3 + i) * DAY),
              dailyMessages: i % 3 ? 50 * i : null,
            },
          ]
        : []),
    ]),
  })
})

/** The Prisma queries listActiveMembers made before it became one statement (as they were). */
async function previousMembers(kind: MembershipKind, query: { page: number; pageSize: number }, now = new Date()) {
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

describe('GET /api/admin/memberships', () => {
  it('answers what the Prisma query answered: both kinds, pages, an empty page and a page past the end', async () => {
    for (const query of [
      {},
      { kind: 'IMAGE' },
      { kind: 'CHAT' },
      { kind: 'IMAGE', pageSize: 3 },
      { kind: 'IMAGE', page: 2, pageSize: 3 },
      { kind: 'CHAT', page: 2, pageSize: 2 },
      { kind: 'IMAGE', page: 99 },
    ] as const) {
      const answer = expectOk(await callRoute(memberships.GET, { token: admin.token, query: query as Record<string, string | number> }))
      expect(Object.keys(answer)).toEqual(['list', 'total'])
      expect(JSON.stringify(answer)).toBe(JSON.stringify(await previousMembers(query.kind ?? 'IMAGE', { page: 1, pageSize: 20, ...query })))
    }
    const image = expectOk(await callRoute(memberships.GET, { token: admin.token, query: { kind: 'IMAGE' } }))
    expect(image.total).toBe(9)
    const chat = expectOk(await callRoute(memberships.GET, { token: admin.token, query: { kind: 'CHAT' } }))
    expect(chat.list.map((m: { dailyMessages: number | null }) => m.dailyMessages)).toContain(null)
  })

  it('no members: an empty page', async () => {
    await db().membership.deleteMany({})
    const answer = expectOk(await callRoute(memberships.GET, { token: admin.token, query: { kind: 'CHAT' } }))
    expect(JSON.stringify(answer)).toBe(JSON.stringify({ list: [], total: 0 }))
    expect(JSON.stringify(answer)).toBe(JSON.stringify(await previousMembers('CHAT', { page: 1, pageSize: 20 })))
  })

  it('is for the console only', async () => {
    const user = await createUser()
    expectFail(await callRoute(memberships.GET, { token: user.token }), 403)
  })
})
