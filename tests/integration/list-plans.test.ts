// Every list page reads its rows' owners, orders, models, wall entries and cards one key lookup
// per row, whatever the planner estimates. Left to a plain JOIN, a generic plan made from the
// statistics could merge-join the page with the whole User index: at 100,000 users, one new
// user's order on the first page made that page cost 32-53 ms instead of 0.2-0.5 ms
// (docs/DECISIONS.md, "Each page row's related rows by key"). Here nested loops are made as
// costly as the planner allows, so a plain JOIN becomes a hash or merge join and fails.
import pg from 'pg'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import * as ordersRoute from '@/app/api/admin/orders/route'
import * as cardsRoute from '@/app/api/admin/cards/route'
import * as chargeRecordsRoute from '@/app/api/admin/charge-records/route'
import * as adminTasksRoute from '@/app/api/admin/tasks/route'
import * as adminWallRoute from '@/app/api/admin/wall/route'
import * as tasksRoute from '@/app/api/tasks/route'
import * as usersRoute from '@/app/api/users/route'
import * as wallRoute from '@/app/api/wall/route'
import * as myOrdersRoute from '@/app/api/orders/route'
import * as mjTasksRoute from '@/app/api/mj/tasks/route'
import * as ledgerRoute from '@/app/api/users/ledger/route'
import * as myCommissionRoute from '@/app/api/users/my/invite/records/route'
import * as conversationsRoute from '@/app/api/chat/conversations/route'
import * as myVideosRoute from '@/app/api/videos/mine/route'
import * as membersRoute from '@/app/api/admin/memberships/route'
import * as videoPurchasesRoute from '@/app/api/admin/video-purchases/route'
import * as commissionRecordsRoute from '@/app/api/admin/commission/records/route'
import * as invitesRoute from '@/app/api/admin/invites/route'
import * as chatUsageRoute from '@/app/api/admin/chat-usage/route'
import * as analysisRoute from '@/app/api/admin/analysis/route'
import * as chargeGroupRoute from '@/app/api/admin/charge-records/group-by-date/route'
import { dbPool } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'

type Plan = { 'Node Type': string; 'Relation Name'?: string; Plans?: Plan[] }

/** Every node of a plan that joins by hashing or merging. */
function hashedOrMerged(plan: Plan): string[] {
  const here = /^(Hash Join|Merge Join)$/.test(plan['Node Type']) ? [plan['Node Type']] : []
  return [...here, ...(plan.Plans ?? []).flatMap(hashedOrMerged)]
}

let admin: Awaited<ReturnType<typeof createUser>>
let user: Awaited<ReturnType<typeof createUser>>

beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
  user = await createUser()
})

const LISTS = [
  ['GET /api/admin/cards', cardsRoute.GET, 'admin'],
  ['GET /api/admin/wall', adminWallRoute.GET, 'admin'],
  ['GET /api/users', usersRoute.GET, 'admin'],
  ['GET /api/admin/tasks', adminTasksRoute.GET, 'admin'],
  ['GET /api/admin/orders', ordersRoute.GET, 'admin'],
  ['GET /api/admin/charge-records', chargeRecordsRoute.GET, 'admin'],
  ['GET /api/tasks', tasksRoute.GET, 'user'],
  ['GET /api/wall', wallRoute.GET, 'user'],
  ['GET /api/orders', myOrdersRoute.GET, 'user'],
  ['GET /api/mj/tasks', mjTasksRoute.GET, 'user'],
  ['GET /api/users/ledger', ledgerRoute.GET, 'user'],
  ['GET /api/users/my/invite/records', myCommissionRoute.GET, 'user'],
  ['GET /api/chat/conversations', conversationsRoute.GET, 'user'],
  ['GET /api/videos/mine', myVideosRoute.GET, 'user'],
  ['GET /api/admin/memberships', membersRoute.GET, 'admin'],
  ['GET /api/admin/video-purchases', videoPurchasesRoute.GET, 'admin'],
  ['GET /api/admin/commission/records', commissionRecordsRoute.GET, 'admin'],
  ['GET /api/admin/invites', invitesRoute.GET, 'admin'],
] as const

/**
 * The one statement `handler` sends to the generic pool, planned (not run) with the given
 * planner settings: the plan PostgreSQL would take for it.
 */
async function planOf(
  handler: Parameters<typeof callRoute>[0],
  token: string,
  settings: string[],
  routeQuery: Record<string, string | number> = { page: 1, pageSize: 20 },
): Promise<Plan> {
  const { pool } = dbPool('generic')
  const query = vi.spyOn(pool, 'query')
  const res = await callRoute(handler, { token, query: routeQuery })
  const sent = query.mock.calls.map(([config]) => config as unknown as { text: string; values: unknown[] })
  query.mockRestore()
  expect(res.status).toBe(200)
  expect(sent).toHaveLength(1)

  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query('BEGIN')
    for (const setting of settings) await client.query(`SET LOCAL ${setting}`)
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${sent[0]!.text}`, sent[0]!.values)
    await client.query('ROLLBACK')
    return (rows[0]['QUERY PLAN'] as { Plan: Plan }[])[0]!.Plan
  } finally {
    await client.end()
  }
}

describe('list pages', () => {
  it.each(LISTS)('%s: no hash or merge join, even with nested loops priced out', async (_name, handler, caller) => {
    const plan = await planOf(handler, (caller === 'admin' ? admin : user).token, ['enable_nestloop = off'])
    expect(hashedOrMerged(plan)).toEqual([])
  })
})

/** The names of the indexes a plan reads. */
function indexesRead(plan: Plan & { 'Index Name'?: string }): string[] {
  return [...(plan['Index Name'] ? [plan['Index Name']] : []), ...(plan.Plans ?? []).flatMap(indexesRead)]
}

const REPORT_RANGE = { from: '2026-01-01', to: '2026-01-30' }

const READS_FROM_INDEXES = [
  [
    'GET /api/admin/invites reads its page in order from the invited users alone, and sums orders and commission from indexes',
    invitesRoute.GET,
    ['User_invitedAt_id_idx', 'Order_paid_userId_amount_idx', 'CommissionRecord_inviteeId_status_account_amount_idx'],
  ],
  ['GET /api/mj/tasks reads the first tasks and their count from their partial index', mjTasksRoute.GET, ['Task_mj_roots_idx']],
  [
    "GET /api/admin/chat-usage reads the period's hours from their totals, and its first hour's answers from their partial index",
    chatUsageRoute.GET,
    ['ChatUsageHourTotal_hour_idx', 'ChatMessage_answers_createdAt_idx'],
  ],
  [
    'GET /api/admin/analysis reads its range of each day total by day, on a plan made once',
    analysisRoute.GET,
    ['ChargeDayTotal_day_idx', 'TaskDayCount_day_idx', 'UserDayCount_day_idx', 'PointsDayTotal_day_idx'],
    REPORT_RANGE,
  ],
  [
    'GET /api/admin/charge-records/group-by-date reads its range of day totals by day, on a plan made once',
    chargeGroupRoute.GET,
    ['ChargeDayTotal_day_idx'],
    REPORT_RANGE,
  ],
] as const

describe('reads on their indexes', () => {
  it.each(READS_FROM_INDEXES)('%s', async (_name, handler, indexes, routeQuery?: Record<string, string>) => {
    // A tiny test table is cheaper to read whole; priced out, what is left is what the indexes allow.
    const plan = await planOf(handler, admin.token, ['enable_seqscan = off', 'enable_bitmapscan = off', 'enable_sort = off'], routeQuery)
    expect(indexesRead(plan)).toEqual(expect.arrayContaining([...indexes]))
  })
})
