// The answers a web process keeps (lib/signals/answer-cache.ts), switched on as in production:
// a kept answer costs no query, and every change to what it shows (made anywhere, by any
// connection) reaches the next read once the database's notification arrives; a change to
// anything else sends nothing.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import * as wallRoute from '@/app/api/wall/route'
import * as likeRoute from '@/app/api/wall/[id]/like/route'
import * as analysisRoute from '@/app/api/admin/analysis/route'
import * as revenueRoute from '@/app/api/admin/charge-records/group-by-date/route'
import { beijingDay } from '@/lib/beijing-time'
import { db } from '@/lib/db'
import { compactCounts } from '@/lib/db/compact-counts'
import { ANSWERS_CHANNEL, answerCacheActive, cachedAnswer, lastAnswerSignal, stopAnswerCache } from '@/lib/signals/answer-cache'
import { callRoute, createUser } from '../helpers/call-route'
import { until } from '../helpers/until'
import { createTaskRow } from '../helpers/tasks'

process.env.ANSWER_CACHE_SECONDS = '10'
let elsewhere: pg.Client

beforeAll(async () => {
  elsewhere = new pg.Client({ connectionString: inject('databaseUrl') })
  await elsewhere.connect()
  // The first kept answer starts the listener; answers are kept once it listens.
  await cachedAnswer(
    'wall',
    'warm-up',
    async () => 0,
    () => 1,
  )
  await until(() => answerCacheActive())
})

afterAll(async () => {
  await stopAnswerCache()
  await elsewhere.end()
  delete process.env.ANSWER_CACHE_SECONDS
})

let markers = 0
/**
 * Waits until this process has heard every notification sent so far: a marker sent now is
 * heard after them. An answer made while one is on its way is not kept.
 */
async function heardAll() {
  const marker = `marker-${++markers}`
  await elsewhere.query(`SELECT pg_notify('${ANSWERS_CHANNEL}', $1)`, [marker])
  await until(() => lastAnswerSignal() === marker)
}

/** Runs `change` on another connection with the triggers off: nothing is sent, as if a notification were lost. */
async function silently(sql: string, values: unknown[]) {
  await elsewhere.query('BEGIN')
  await elsewhere.query('SET LOCAL session_replication_role = replica')
  await elsewhere.query(sql, values)
  await elsewhere.query('COMMIT')
}

type Wall = { list: { id: string; likes: number; liked?: boolean; prompt: string; author: { name: string; avatar: string } }[] }
const wall = (token?: string) => callRoute<Wall>(wallRoute.GET, { token, query: { limit: 5 } }).then((r) => r.body.data)

async function putOnWall(owner: { id: string }, prompt: string) {
  const task = await createTaskRow(owner.id)
  return db().wallWork.create({
    data: {
      taskId: task.id,
      userId: owner.id,
      status: 'APPROVED',
      listedAt: new Date(Date.now() + 3_600_000),
      modelType: 'STABLE_DIFFUSION',
      modelName: 'demo',
      imageUrl: '/files/x/a.png',
      thumbUrl: '/files/x/a.thumb.webp',
      width: 512,
      height: 512,
      prompt,
    },
  })
}

/** What `work` sends on the answers' channel: a marker sent after it arrives after all it sent. */
async function sentBy(work: () => Promise<unknown>): Promise<string[]> {
  const listener = new pg.Client({ connectionString: inject('databaseUrl') })
  await listener.connect()
  const heard: string[] = []
  listener.on('notification', (m) => heard.push(m.payload ?? ''))
  await listener.query(`LISTEN ${ANSWERS_CHANNEL}`)
  await work()
  await elsewhere.query(`SELECT pg_notify('${ANSWERS_CHANNEL}', 'marker')`)
  await until(() => heard.includes('marker'))
  await listener.end()
  return heard.filter((p) => p !== 'marker')
}
const sentBySql = (sql: string, values: unknown[]) => sentBy(() => elsewhere.query(sql, values))

describe('kept answers: the wall', () => {
  it('keeps a page, and shows a change made elsewhere once its notification arrives', async () => {
    const author = await createUser({ name: '作者甲' })
    const work = await putOnWall(author, `kept-${Date.now()}`)
    await heardAll()
    expect((await wall()).list[0]).toMatchObject({ id: work.id, likes: 0 })
    // Changed with the triggers off: the kept page still answers, which only a kept page can do.
    await silently(`UPDATE "WallWork" SET likes = 7 WHERE id = $1`, [work.id])
    expect((await wall()).list[0]).toMatchObject({ id: work.id, likes: 0 })
    // Any change to a shown column, the author's name or avatar, a new work: the next reads show it.
    for (const [change, values, shows] of [
      [`UPDATE "WallWork" SET likes = 8 WHERE id = $1`, [work.id], (w: Wall) => w.list[0]!.likes === 8],
      [`UPDATE "User" SET name = '作者乙' WHERE id = $1`, [author.id], (w: Wall) => w.list[0]!.author.name === '作者乙'],
      [`UPDATE "User" SET avatar = '/files/a.png' WHERE id = $1`, [author.id], (w: Wall) => w.list[0]!.author.avatar === '/files/a.png'],
      [`UPDATE "WallWork" SET status = 'HIDDEN' WHERE id = $1`, [work.id], (w: Wall) => w.list[0]?.id !== work.id],
    ] as const) {
      await elsewhere.query(change, [...values])
      const ms = await until(async () => shows(await wall()))
      console.log(`[figure] kept wall page: a change made elsewhere shown after ${ms.toFixed(1)} ms (${change.split(' SET ')[1]!.split(' WHERE')[0]})`)
    }
  })

  it("writes the caller's own likes into the kept page, and its count once the like is heard", async () => {
    const author = await createUser()
    const fan = await createUser()
    const work = await putOnWall(author, `liked-${Date.now()}`)
    await heardAll()
    expect((await wall(fan.token)).list[0]).toMatchObject({ id: work.id, likes: 0, liked: false })
    expect((await wall()).list[0]).not.toHaveProperty('liked')
    // The signed-in page is the kept one (a count changed unheard does not show), its like is the caller's own.
    await silently(`UPDATE "WallWork" SET likes = 5 WHERE id = $1`, [work.id])
    await silently(`INSERT INTO "WallLike" ("workId", "userId") VALUES ($1, $2)`, [work.id, fan.id])
    expect((await wall(fan.token)).list[0]).toMatchObject({ id: work.id, likes: 0, liked: true })
    await silently(`DELETE FROM "WallLike" WHERE "workId" = $1 AND "userId" = $2`, [work.id, fan.id])
    // This process's own like drops its kept pages when it commits: the very next read shows it.
    expect((await callRoute(likeRoute.POST, { token: fan.token, params: { id: work.id } })).body.data).toEqual({ liked: true, likes: 6 })
    expect((await wall(fan.token)).list[0]).toMatchObject({ id: work.id, likes: 6, liked: true })
    expect((await wall((await createUser()).token)).list[0]).toMatchObject({ id: work.id, likes: 6, liked: false })
  })

  it('sends for every column the wall shows, and nothing for what it does not show: a report count, points', async () => {
    const author = await createUser()
    const work = await putOnWall(author, `silent-${Date.now()}`)
    const shown = ['id', 'taskId', 'userId', 'status', 'featured', 'sort', 'modelType', 'modelName', 'imageUrl', 'thumbUrl', 'videoUrl']
    for (const column of [...shown, 'durationSec', 'width', 'height', 'prompt', 'likes', 'listedAt']) {
      expect(await sentBySql(`UPDATE "WallWork" SET "${column}" = "${column}" WHERE id = $1`, [work.id]), column).toEqual(['wall'])
    }
    for (const column of ['name', 'avatar']) {
      expect(await sentBySql(`UPDATE "User" SET "${column}" = "${column}" || 'x' WHERE id = $1`, [author.id]), column).toEqual(['wall'])
    }
    expect(await sentBySql(`UPDATE "WallWork" SET reports = reports + 1, "updatedAt" = now() WHERE id = $1`, [work.id])).toEqual([])
    expect(await sentBySql(`UPDATE "User" SET points = points + 5 WHERE id = $1`, [author.id])).toEqual([])
    expect(await sentBySql(`UPDATE "WallWork" SET likes = likes + 1 WHERE id = $1`, [work.id])).toEqual(['wall'])
  })
})

describe('kept answers: the wall, keys', () => {
  it('keeps a page under its cursor as read, apart from a search', async () => {
    const author = await createUser()
    for (const n of [1, 2]) await putOnWall(author, `page-${n}-${Date.now()}`)
    const page = (query: Record<string, string | number>) => callRoute<Wall & { nextCursor: string }>(wallRoute.GET, { query }).then((r) => r.body.data)
    const cursor = (await page({ limit: 1 })).nextCursor
    await heardAll()
    const second = await page({ limit: 1, cursor })
    expect(second.list).toHaveLength(1)
    // base64url read leniently: another spelling of the same cursor is the same page, and a
    // search for that spelling's extra character is not that page.
    expect(await page({ limit: 1, cursor: `${cursor}|` })).toEqual(second)
    expect((await page({ limit: 1, cursor, q: '|' })).list).toEqual([])
  })
})

describe('kept answers: the reports', () => {
  it('keep both, and show a new user and a paid charge made elsewhere once heard', async () => {
    const today = beijingDay()
    const range = { from: today, to: today }
    const admin = await createUser({ role: 'ADMIN' })
    const analysis = async () => (await callRoute(analysisRoute.GET, { token: admin.token, query: range })).body.data.days[0]
    const revenue = async () => (await callRoute(revenueRoute.GET, { token: admin.token, query: range })).body.data.list[0]
    await heardAll()
    const before = { analysis: await analysis(), revenue: await revenue() }
    // A user added with the triggers off changes neither kept answer.
    await silently(`INSERT INTO "User" (id, username, name, role, "updatedAt") VALUES ($1, $1, $1, 'USER', now())`, [`quiet${Date.now()}`])
    await silently(`INSERT INTO "UserDayCount" (day, n) VALUES ($1::date, 1)`, [today])
    expect(await analysis()).toEqual(before.analysis)
    await createUser()
    await until(async () => (await analysis()).newUsers === before.analysis.newUsers + 2)
    await elsewhere.query(`INSERT INTO "ChargeDayTotal" (day, type, channel, n, amount) VALUES ($1::date, 'BALANCE', 'ALIPAY', 1, 1234)`, [today])
    await until(async () => (await revenue()).amount === before.revenue.amount + 1234)
    expect((await analysis()).revenue).toBe(before.analysis.revenue + 1234)
  })

  it('sends nothing for a write that adds or removes no day total: a task making progress, a fold of nothing', async () => {
    const owner = await createUser()
    const task = await createTaskRow(owner.id, { status: 'PENDING', stage: 'RUNNING' })
    expect(await sentBySql(`UPDATE "Task" SET progress = 40 WHERE id = $1`, [task.id])).toEqual([])
    expect(await sentBySql(`UPDATE "Task" SET status = 'SUCCESS' WHERE id = $1`, [task.id])).toEqual(['reports'])
    // Folding deltas sends (once for each table it folds), folding nothing does not.
    expect(new Set(await sentBy(() => compactCounts()))).toEqual(new Set(['reports']))
    expect(await sentBy(() => compactCounts())).toEqual([])
  })
})

describe('kept answers: the cache itself', () => {
  it('does not keep an answer whose scope changed while it was being made', async () => {
    let loads = 0
    const load = async () => {
      loads++
      if (loads === 1) {
        await elsewhere.query(`SELECT pg_notify('${ANSWERS_CHANNEL}', 'wall')`)
        await heardAll()
      }
      return loads
    }
    expect(await cachedAnswer('wall', 'in-flight', load, () => 1)).toBe(1)
    expect(await cachedAnswer('wall', 'in-flight', load, () => 1)).toBe(2)
    expect(await cachedAnswer('wall', 'in-flight', load, () => 1)).toBe(2)
    // Another scope's notification leaves it kept.
    await elsewhere.query(`SELECT pg_notify('${ANSWERS_CHANNEL}', 'reports')`)
    await heardAll()
    expect(await cachedAnswer('wall', 'in-flight', load, () => 1)).toBe(2)
  })

  it('keeps at most its weight, the least recently used going first', async () => {
    let loads = 0
    const load = async () => ++loads
    const heavy = () => 3_000_000
    expect(await cachedAnswer('reports', 'weight-a', load, heavy)).toBe(1)
    expect(await cachedAnswer('reports', 'weight-b', load, heavy)).toBe(2)
    expect(await cachedAnswer('reports', 'weight-a', load, heavy)).toBe(1)
    expect(await cachedAnswer('reports', 'weight-c', load, heavy)).toBe(3)
    expect(await cachedAnswer('reports', 'weight-a', load, heavy)).toBe(1)
    expect(await cachedAnswer('reports', 'weight-b', load, heavy)).toBe(4)
    expect(await cachedAnswer('reports', 'too-heavy', load, () => 9_000_000)).toBe(5)
    expect(await cachedAnswer('reports', 'too-heavy', load, () => 9_000_000)).toBe(6)
  })

  it('keeps nothing while its listener is gone, and starts empty when it is back', async () => {
    let loads = 0
    const load = async () => ++loads
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(1)
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(1)
    await elsewhere.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${ANSWERS_CHANNEL}'`)
    await until(() => !answerCacheActive())
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(2)
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(3)
    await until(() => answerCacheActive())
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(4)
    expect(await cachedAnswer('reports', 'reconnect', load, () => 1)).toBe(4)
  })
})
