// The console's chat usage (GET /api/admin/chat-usage) sums a period's whole hours from the
// hourly totals that triggers keep in the same transaction as each message (migration
// chat_usage_hours), and reads only the answers of its first, partial hour. Under concurrent
// inserts, moved times, models and users, refunds, deletions (a conversation's too), rolled-back
// transactions and the worker folding the deltas, each hour's totals must equal what the
// messages say in every snapshot; and the period must be exact to the millisecond.
import { describe, expect, it, vi } from 'vitest'
import { chatUsage } from '@/lib/chat/manage-chat-models'
import { db, dbPool } from '@/lib/db'
import { COMPACT_HOUR_TOTALS_JOB, compactHourTotals } from '@/lib/db/compact-counts'
import { backgroundJobs } from '@/lib/worker/jobs'
import { createUser } from '../helpers/call-route'
import { previousChatUsage } from '../helpers/chat-usage-prisma'
import { keysDiffering, rolledBackTransactions, stormPool, watched } from '../helpers/counter-storm'

const storm = stormPool()
const { q } = storm
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

const MUST_BE_ZERO = {
  hours: keysDiffering(
    `SELECT date_trunc('hour', "createdAt"), "modelId", "userId", count(*)::bigint, sum(points)::bigint FROM "ChatMessage" WHERE role = 'ASSISTANT' GROUP BY 1, 2, 3`,
    `SELECT hour, "modelId", "userId", sum(messages)::bigint, sum(points)::bigint FROM "ChatUsageHourTotal" GROUP BY 1, 2, 3 HAVING sum(messages) <> 0 OR sum(points) <> 0`,
  ),
}

type Plan = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Plan Rows': number; Plans?: Plan[] }

/** What a plan reads: each node on a table or an index, as its type, table, index and the rows it expects. */
const scans = (plan: Plan): string[] => [
  ...(plan['Relation Name'] || plan['Index Name']
    ? [[plan['Node Type'], plan['Relation Name'], plan['Index Name'], plan['Plan Rows']].filter((part) => part !== undefined).join(' ')]
    : []),
  ...(plan.Plans ?? []).flatMap(scans),
]

async function chatSetup(models: number) {
  const owner = await createUser()
  const made: string[] = []
  for (let i = 0; i < models; i++) made.push((await db().chatModel.create({ data: { name: `用量 ${i}`, endpoint: 'http://127.0.0.1:9/v1', model: 'm' } })).id)
  const conversation = (tag: string) => db().chatConversation.create({ data: { id: tag, userId: owner.id, modelId: made[0]!, title: tag } })
  return { owner, models: made, conversation }
}

describe('the hourly totals of the chat usage', () => {
  it('stay exact under concurrent writes, moved hours, refunds, deletions, rollbacks and folding', async () => {
    const { models, conversation } = await chatSetup(2)
    const users = [(await createUser()).id, (await createUser()).id, 'gone-user-id']
    for (const tag of ['cuh-c0', 'cuh-c1', 'cuh-c2', 'cuh-c3', 'cuh-c4']) await conversation(tag)
    // Questions and answers over 50 hours from 1 March 2025, some on the last millisecond of an hour.
    const add = (conversationId: string, tag: string, n: number, client: { query: typeof storm.pool.query } = storm.pool) =>
      client.query(
        `INSERT INTO "ChatMessage" (id, "conversationId", "userId", "modelId", role, content, points, "createdAt")
         SELECT $2 || g, $1, ($3::text[])[g % 3 + 1], ($4::text[])[g % 2 + 1], (CASE WHEN g % 3 = 0 THEN 'USER' ELSE 'ASSISTANT' END)::"ChatRole", 'x', g % 5,
                timestamp '2025-03-01 00:00' + (g * 37 % 3000) * interval '1 minute' + (CASE WHEN g % 4 = 0 THEN interval '59 minutes 59.999 seconds' ELSE interval '0' END)
         FROM generate_series(1, $5::int) g`,
        [conversationId, tag, users, models, n],
      )
    await add('cuh-c0', 'cuh0-', 300)
    const pick = `SELECT id FROM "ChatMessage" WHERE id LIKE 'cuh%' ORDER BY random() LIMIT 7`

    const result = await watched(storm.pool, MUST_BE_ZERO, () =>
      Promise.all([
        (async () => {
          for (let i = 0; i < 30; i++) await compactHourTotals()
        })(),
        ...Array.from({ length: 4 }, (_, i) => add(`cuh-c${i + 1}`, `cuh${i + 1}-`, 120)),
        ...Array.from({ length: 3 }, async () => {
          for (let i = 0; i < 12; i++) {
            await q(`UPDATE "ChatMessage" SET points = 0 WHERE id IN (${pick})`)
            await q(`UPDATE "ChatMessage" SET "createdAt" = "createdAt" + interval '30 minutes' WHERE id IN (${pick})`)
            await q(`UPDATE "ChatMessage" SET "modelId" = $1, "userId" = $2 WHERE id IN (${pick})`, [models[i % 2], users[i % 3]])
            await q(`UPDATE "ChatMessage" SET role = (CASE WHEN role = 'USER' THEN 'ASSISTANT' ELSE 'USER' END)::"ChatRole" WHERE id IN (${pick})`)
            await q(`UPDATE "ChatMessage" SET content = content || 'y', incomplete = true WHERE id IN (${pick})`)
          }
        }),
        (async () => {
          for (let i = 0; i < 8; i++) await q(`DELETE FROM "ChatMessage" WHERE id IN (${pick})`)
          // A conversation deleted takes its messages with it.
          await q(`DELETE FROM "ChatConversation" WHERE id = 'cuh-c1'`)
        })(),
        rolledBackTransactions(storm.pool, 5, async (client, i) => {
          await add('cuh-c2', `cuhrb${i}-`, 9, client)
          await client.query(`UPDATE "ChatMessage" SET points = points + 100 WHERE id IN (${pick})`)
          await client.query(`DELETE FROM "ChatMessage" WHERE id IN (${pick})`)
        }),
      ]),
    )
    console.log(`[figure] chat usage's hour totals checked against the messages during the storm: ${result.checks} snapshots, ${result.wrong.length} wrong`)
    expect(result.wrong).toEqual([])
    expect(result.checks).toBeGreaterThan(0)

    // Folded, each hour, model and user that answered is one row; writing an answer's text adds none.
    await compactHourTotals()
    const keys = async () => (await q(`SELECT count(*)::int AS n FROM "ChatUsageHourTotal"`)).rows[0].n
    const answered = await q(
      `SELECT count(DISTINCT (date_trunc('hour', "createdAt"), "modelId", "userId"))::int AS n FROM "ChatMessage" WHERE role = 'ASSISTANT'`,
    )
    expect(await keys()).toBe(answered.rows[0].n)
    expect(answered.rows[0].n).toBeGreaterThan(50)
    await q(`UPDATE "ChatMessage" SET content = content || 'z' WHERE id LIKE 'cuh%'`)
    expect(await keys()).toBe(answered.rows[0].n)
    // The worker folds them hourly.
    expect(backgroundJobs().find((job) => job.name === COMPACT_HOUR_TOTALS_JOB)?.intervalMs).toBe(60 * 60_000)
  })

  it('count the period to the millisecond: an answer at its first instant is in, one a millisecond before is out', async () => {
    await db().chatMessage.deleteMany()
    const { models, conversation } = await chatSetup(8)
    const { id: conversationId } = await conversation('cuh-edges')
    const users: string[] = []
    for (let i = 0; i < 8; i++) users.push((await createUser()).id)
    // User and model i answer i + 1 times at one instant, alike (the same points), and 10 × (i + 1)
    // times hours later: 11 × (i + 1) or 10 × (i + 1) answers, so no two rows of the answer tie,
    // and the partial hour's answers and the whole hours' add up for the same user and model.
    const H = Date.parse('2025-06-01T10:00:00Z')
    const instants = [H - 1, H, H + 1, H + HOUR / 2, H + HOUR - 1, H + HOUR, H + HOUR + 1, H + 5 * HOUR]
    const answer = (i: number, at: number, points: number) => (_: unknown, k: number) => ({
      id: `cuh-e${i}-${at}-${k}`,
      conversationId,
      userId: users[i]!,
      modelId: models[i]!,
      role: 'ASSISTANT' as const,
      content: 'x',
      points,
      createdAt: new Date(at),
    })
    await db().chatMessage.createMany({
      data: instants.flatMap((at, i) => [
        ...Array.from({ length: i + 1 }, answer(i, at, i)),
        ...Array.from({ length: 10 * (i + 1) }, answer(i, H + 6 * HOUR, 1)),
      ]),
    })
    for (const days of [1, 7])
      for (const since of [H - 2, ...instants.slice(0, 7)]) {
        const now = since + days * DAY
        const expected = await previousChatUsage(days, now)
        expect((await chatUsage(days, now)).toJsonText(), `${days} days from ${new Date(since).toISOString()}`).toBe(JSON.stringify(expected))
      }
    // Folding changes nothing.
    await compactHourTotals()
    expect((await chatUsage(1, H + DAY)).value).toEqual(await previousChatUsage(1, H + DAY))
    expect((await chatUsage(1, H + HOUR + 1 + DAY)).value.users.map((u) => u.messages)).toEqual([88, 77, 60, 50, 40, 30, 20, 10])
  })

  it("read a year of hourly totals on the index, even on the generic plan that doesn't know the period", async () => {
    const { models } = await chatSetup(1)
    const client = await storm.pool.connect()
    try {
      await client.query('BEGIN')
      // A busy year: 8,760 hours of 10 users each.
      await client.query(
        `INSERT INTO "ChatUsageHourTotal" (hour, "modelId", "userId", messages, points)
         SELECT timestamp '2025-01-01' + h * interval '1 hour', $1, 'busy-user-' || u, 1, 1 FROM generate_series(0, 8759) h, generate_series(1, 10) u`,
        [models[0]],
      )
      await client.query(`ANALYZE "ChatUsageHourTotal"`)
      const query = vi.spyOn(dbPool('generic').pool, 'query')
      await chatUsage(7, Date.parse('2025-12-31T12:30:00Z'))
      const sent = query.mock.calls.map(([config]) => config as unknown as { text: string; values: unknown[] })
      query.mockRestore()
      expect(sent).toHaveLength(1)
      await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`)
      await client.query(`PREPARE usage_plan AS ${sent[0]!.text}`)
      const literals = sent[0]!.values.map((v) => client.escapeLiteral(String(v))).join(', ')
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE usage_plan(${literals})`)
      const reads = scans(rows[0]['QUERY PLAN'][0].Plan).filter((s) => s.includes('ChatUsageHourTotal'))
      expect(reads.filter((s) => s.startsWith('Seq Scan'))).toEqual([])
      expect(
        reads.some((s) => s.includes('ChatUsageHourTotal_hour_idx')),
        reads.join('; '),
      ).toBe(true)
      // It expects a few hours, not a third of the table: over years a third would be read whole.
      expect(Math.max(...reads.map((s) => Number(s.split(' ').at(-1))))).toBeLessThan(87_600 / 100)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})
