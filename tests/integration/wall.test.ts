import { describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import * as publishRoute from '@/app/api/tasks/[id]/publish/route'
import * as unpublishRoute from '@/app/api/tasks/[id]/unpublish/route'
import * as wallRoute from '@/app/api/wall/route'
import * as wallWorkRoute from '@/app/api/wall/[id]/route'
import * as likeRoute from '@/app/api/wall/[id]/like/route'
import * as favoriteRoute from '@/app/api/wall/[id]/favorite/route'
import * as reportRoute from '@/app/api/wall/[id]/report/route'
import * as adminWallRoute from '@/app/api/admin/wall/route'
import * as approveRoute from '@/app/api/admin/wall/[id]/approve/route'
import * as hideRoute from '@/app/api/admin/wall/[id]/hide/route'
import * as recommendRoute from '@/app/api/admin/tasks/recommend/[id]/route'
import * as unRecommendRoute from '@/app/api/admin/tasks/un_recommend/[id]/route'
import * as showcaseRoute from '@/app/api/showcase/route'
import * as adminShowcaseRoute from '@/app/api/admin/showcase/route'
import * as adminShowcaseItemRoute from '@/app/api/admin/showcase/[id]/route'
import * as files from '@/app/files/[...key]/route'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, createTaskRow, drainQueue } from '../helpers/tasks'
import type { WallItem, WallPage } from '@/lib/wall/schemas'

type User = Awaited<ReturnType<typeof createUser>>

async function finishedTask(user: User, prompt = '湖边的枫叶'): Promise<string> {
  const res = await callRoute(tasksRoute.POST, { token: user.token, body: { type: 'SD_TEXT2IMG', params: { prompt, width: 256, height: 256, count: 1 } } })
  expect(res.status).toBe(200)
  await drainQueue()
  return res.body.data.id
}

async function wall(query: Record<string, string | number> = {}, token?: string): Promise<WallPage> {
  const res = await callRoute<WallPage>(wallRoute.GET, { query, token })
  expect(res.status).toBe(200)
  return res.body.data
}

/** Works straight in the database (a task row each), already on the wall unless told otherwise. */
async function seedWorks(userId: string, modelId: string, count: number, status: 'APPROVED' | 'PENDING' = 'APPROVED'): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const task = await createTaskRow(userId, { modelId, params: { prompt: `种子 ${i}` } })
    const work = await db().wallWork.create({
      data: {
        taskId: task.id,
        userId,
        status,
        // Three works share each moment: the id breaks the tie.
        listedAt: status === 'APPROVED' ? new Date(Math.floor((Date.now() - (count - i) * 1000) / 3000) * 3000) : null,
        modelType: 'STABLE_DIFFUSION',
        modelName: 'demo',
        imageUrl: `/files/x/${i}.png`,
        thumbUrl: `/files/x/${i}.thumb.webp`,
        width: 512,
        height: 512 + i,
        prompt: `种子 ${i}`,
        likes: i % 4,
      },
    })
    ids.push(work.id)
  }
  return ids
}

describe('the image wall', () => {
  it('publish → pending (not listed) → recommended → on the wall; hide takes it off; a private result is never listed nor recommendable', async () => {
    await createModel({ name: 'wall-demo' })
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser({ points: 100, name: '画手<b>' })
    const published = await finishedTask(owner, '雪山下的小木屋')
    const privateTask = await finishedTask(owner, '只给自己看的图')

    const before = await wall()
    expect(before.list.map((w) => w.taskId)).not.toContain(privateTask)

    const refused = await callRoute(recommendRoute.POST, { token: admin.token, params: { id: privateTask } })
    expect(refused.status).toBe(409)
    expect(refused.body.errMessage).toBe('该作品未被作者公开，不能推荐到作品墙')
    expect((await db().task.findUniqueOrThrow({ where: { id: privateTask } })).isRecommended).toBe(false)

    const pub = await callRoute(publishRoute.POST, { token: owner.token, params: { id: published }, body: {} })
    expect(pub.status).toBe(200)
    expect(pub.body.data).toMatchObject({ taskId: published, status: 'PENDING', featured: false })
    const wallId: string = pub.body.data.wallId
    // Someone else cannot publish it; the wall does not show it while it waits.
    const stranger = await createUser()
    expect((await callRoute(publishRoute.POST, { token: stranger.token, params: { id: published }, body: {} })).status).toBe(404)
    expect((await wall()).list.map((w) => w.id)).not.toContain(wallId)
    expect((await callRoute(wallWorkRoute.GET, { params: { id: wallId } })).status).toBe(404)
    const pending = await callRoute(adminWallRoute.GET, { token: admin.token, query: { status: 'PENDING' } })
    expect(pending.body.data.list.map((w: { id: string }) => w.id)).toEqual([wallId])

    const rec = await callRoute(recommendRoute.POST, { token: admin.token, params: { id: published } })
    expect(rec.status).toBe(200)
    const listed = await wall()
    const item = listed.list.find((w) => w.id === wallId) as WallItem
    expect(item).toMatchObject({
      taskId: published,
      type: 'STABLE_DIFFUSION',
      prompt: '雪山下的小木屋',
      model: 'wall-demo',
      author: { name: '画手<b>' },
      likes: 0,
      featured: true,
    })
    expect(item.thumbUrl).toMatch(/^\/files\/results\/.+\.thumb\.webp$/)
    expect(item.imageUrl).toMatch(/^\/files\/results\/.+\.png$/)
    expect(item.width).toBeGreaterThan(0)
    expect((await wall({ featured: '1' })).list.map((w) => w.id)).toEqual([wallId])
    expect((await wall({ q: '雪山下' })).list.map((w) => w.id)).toEqual([wallId])
    expect((await wall({ q: '100%_' })).list).toEqual([])
    expect((await wall({ type: 'STABLE_DIFFUSION' })).list.map((w) => w.id)).toContain(wallId)
    expect((await wall({ type: 'MID_JOURNEY' })).list.map((w) => w.id)).not.toContain(wallId)
    expect(listed.list.map((w) => w.taskId)).not.toContain(privateTask)
    const detail = await callRoute(wallWorkRoute.GET, { params: { id: wallId } })
    expect(detail.body.data).toMatchObject({ id: wallId, prompt: '雪山下的小木屋', negativePrompt: '' })
    expect(typeof detail.body.data.seed).toBe('number')

    // Reported (once per user, however often), listed for the admin, who hides it below.
    await Promise.all([stranger, stranger, owner].map((u) => callRoute(reportRoute.POST, { token: u.token, params: { id: wallId } })))
    const reported = await callRoute(adminWallRoute.GET, { token: admin.token, query: { reported: 1 } })
    expect(reported.body.data.list.map((w: { id: string; reports: number }) => [w.id, w.reports])).toEqual([[wallId, 2]])

    await callRoute(unRecommendRoute.POST, { token: admin.token, params: { id: published } })
    expect((await wall({ featured: '1' })).list).toEqual([])
    expect((await wall()).list.map((w) => w.id)).toContain(wallId)

    expect((await callRoute(hideRoute.POST, { token: admin.token, params: { id: wallId } })).status).toBe(200)
    expect((await wall()).list.map((w) => w.id)).not.toContain(wallId)
    const again = await callRoute(publishRoute.POST, { token: owner.token, params: { id: published }, body: {} })
    expect(again.status).toBe(409)
    expect(again.body.errMessage).toBe('该作品已被管理员隐藏，无法再次公开')
    expect((await callRoute(hideRoute.POST, { token: owner.token, params: { id: wallId } })).status).toBe(403)
    // Nor can the owner take it off and publish it anew, which would bring it back without its reports.
    const off = await callRoute(unpublishRoute.POST, { token: owner.token, params: { id: published } })
    expect([off.status, off.body.errMessage]).toEqual([409, '该作品已被管理员隐藏，无法再次公开'])
    expect(await db().wallWork.findUniqueOrThrow({ where: { id: wallId }, select: { status: true } })).toEqual({ status: 'HIDDEN' })

    expect((await callRoute(approveRoute.POST, { token: admin.token, params: { id: wallId } })).status).toBe(200)
    expect((await wall()).list.map((w) => w.id)).toContain(wallId)
    expect(await db().adminAuditLog.count({ where: { targetId: wallId, action: { in: ['wall.hide', 'wall.approve'] } } })).toBe(2)

    // The owner withdraws it; then deletes the task from history.
    expect((await callRoute(unpublishRoute.POST, { token: owner.token, params: { id: published } })).status).toBe(200)
    expect((await wall()).list.map((w) => w.id)).not.toContain(wallId)
    expect((await callRoute(publishRoute.POST, { token: owner.token, params: { id: published }, body: {} })).body.data.status).toBe('PENDING')
    expect((await callRoute(taskRoute.DELETE, { method: 'DELETE', token: owner.token, params: { id: published } })).status).toBe(200)
    expect(await db().wallWork.count({ where: { taskId: published } })).toBe(0)
    expect((await callRoute(taskRoute.GET, { token: owner.token, params: { id: published } })).status).toBe(404)
  })

  it("a task's unpublished images cannot be found from the address of the one published", async () => {
    await createModel({ name: 'wall-names' })
    const owner = await createUser({ points: 100 })
    const res = await callRoute(tasksRoute.POST, {
      token: owner.token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: '两只猫', width: 256, height: 256, count: 2 } },
    })
    await drainQueue()
    const results = (await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } })).results as Array<{ url: string; thumbUrl: string }>
    expect(results).toHaveLength(2)
    await callRoute(publishRoute.POST, { token: owner.token, params: { id: res.body.data.id }, body: { index: 1 } })
    const shown = results[1]!.url
    expect(shown).toMatch(new RegExp(`/${res.body.data.id}-1-[A-Za-z0-9]{12}\\.png$`))
    const get = async (url: string) =>
      (await files.GET(new Request(`http://localhost${url}`), { params: Promise.resolve({ key: url.slice('/files/'.length).split('/') }) })).status
    expect(await get(results[0]!.url)).toBe(200)
    for (const guess of [
      shown.replace('-1-', '-0-'),
      shown.replace(/-1-[A-Za-z0-9]+\.png$/, '-0.png'),
      shown.replace(/\.png$/, '.thumb.webp').replace('-1-', '-0-'),
    ]) {
      expect(await get(guess)).toBe(404)
    }
  })

  it('publish and delete of one task at once never leave a work of a deleted task', async () => {
    const model = await createModel({ name: 'wall-race-2' })
    const owner = await createUser()
    const results = [{ url: '/files/x/race.png', thumbUrl: '/files/x/race.thumb.webp', width: 512, height: 512 }]
    for (let round = 0; round < 3; round++) {
      const tasks = await Promise.all(Array.from({ length: 150 }, () => createTaskRow(owner.id, { modelId: model.id, params: { prompt: '竞态' }, results })))
      const answers = await Promise.all(
        tasks.flatMap((t) => [
          callRoute(publishRoute.POST, { token: owner.token, params: { id: t.id }, body: { index: 0 } }),
          callRoute(taskRoute.DELETE, { token: owner.token, params: { id: t.id } }),
        ]),
      )
      expect(answers.every((a) => [200, 404].includes(a.status))).toBe(true)
      expect(await db().wallWork.count({ where: { taskId: { in: tasks.map((t) => t.id) } } })).toBe(0)
    }
  })

  it('publish, unpublish, recommend, hide and delete of one task at once: no deadlock, no work of a deleted task', async () => {
    const model = await createModel({ name: 'wall-race' })
    const owner = await createUser()
    const admin = await createUser({ role: 'ADMIN' })
    const results = [{ url: '/files/x/race.png', thumbUrl: '/files/x/race.thumb.webp', width: 512, height: 512 }]
    const tasks = await Promise.all(Array.from({ length: 200 }, () => createTaskRow(owner.id, { modelId: model.id, params: { prompt: '竞态' }, results })))
    // Half of them already on the wall, so the console's hide and recommend have a work to act on.
    const works = await Promise.all(
      tasks
        .slice(100)
        .map(async (t) => (await callRoute(publishRoute.POST, { token: owner.token, params: { id: t.id }, body: { index: 0 } })).body.data.wallId as string),
    )
    const answers = await Promise.all([
      ...tasks.flatMap((t, i) => [
        callRoute(publishRoute.POST, { token: owner.token, params: { id: t.id }, body: { index: 0 } }),
        callRoute(taskRoute.DELETE, { token: owner.token, params: { id: t.id } }),
        ...(i % 3 === 0 ? [callRoute(unpublishRoute.POST, { token: owner.token, params: { id: t.id } })] : []),
        ...(i % 3 === 1 ? [callRoute(recommendRoute.POST, { token: admin.token, params: { id: t.id } })] : []),
      ]),
      ...works.map((id) => callRoute(hideRoute.POST, { token: admin.token, params: { id } })),
    ])
    // Each either acted or found the task (or work) gone or not yet published: no deadlock, no 500.
    expect(
      answers.every((a) => [200, 404, 409].includes(a.status)),
      JSON.stringify(answers.map((a) => a.body.errMessage)),
    ).toBe(true)
    const left = await db().wallWork.count({ where: { taskId: { in: tasks.map((t) => t.id) } } })
    expect(await db().task.count({ where: { id: { in: tasks.map((t) => t.id) }, deletedAt: null } })).toBe(0)
    expect(left).toBe(0)
  })

  it('auto-publishing (off by default) puts a published work straight on the wall', async () => {
    await createModel({ name: 'wall-auto' })
    const owner = await createUser({ points: 100 })
    expect(await db().siteConfig.findUnique({ where: { name: 'WALL_AUTO_PUBLISH' } })).toBeNull()
    await db().siteConfig.create({ data: { name: 'WALL_AUTO_PUBLISH', value: 'true' } })
    const { invalidateConfigCache } = await import('@/lib/site-config/store')
    invalidateConfigCache()
    try {
      const id = await finishedTask(owner)
      const pub = await callRoute(publishRoute.POST, { token: owner.token, params: { id }, body: {} })
      expect(pub.body.data.status).toBe('APPROVED')
      expect((await wall()).list.map((w) => w.taskId)).toContain(id)

      // Taken off and published again: straight back while nobody reported it...
      const publishAgain = async () => {
        expect((await callRoute(unpublishRoute.POST, { token: owner.token, params: { id } })).status).toBe(200)
        return (await callRoute(publishRoute.POST, { token: owner.token, params: { id }, body: {} })).body.data
      }
      const back = await publishAgain()
      expect(back.status).toBe('APPROVED')
      // ...but once reported, only through review: taking it off is no way to wipe its reports.
      const reporter = await createUser()
      expect((await callRoute(reportRoute.POST, { token: reporter.token, params: { id: back.wallId } })).status).toBe(200)
      expect((await publishAgain()).status).toBe('PENDING')
      expect((await wall()).list.map((w) => w.taskId)).not.toContain(id)
    } finally {
      await db().siteConfig.delete({ where: { name: 'WALL_AUTO_PUBLISH' } })
      invalidateConfigCache()
    }
  })

  it('cursor pages never repeat or skip a work while new works go on the wall between pages (new and hot)', async () => {
    const model = await createModel({ name: 'wall-cursor' })
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser()
    await db().wallWork.deleteMany({})
    const original = await seedWorks(owner.id, model.id, 23)
    const waiting = await seedWorks(owner.id, model.id, 6, 'PENDING')

    for (const sort of ['new', 'hot']) {
      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: WallPage = await wall({ limit: 5, sort, ...(cursor ? { cursor } : {}) })
        seen.push(...page.list.map((w) => w.id))
        cursor = page.nextCursor
        // A submission approved between two pages (it goes on the wall as the newest).
        const next = waiting.shift()
        if (next) expect((await callRoute(approveRoute.POST, { token: admin.token, params: { id: next } })).status).toBe(200)
        pages++
      } while (cursor && pages < 20)
      expect(new Set(seen).size).toBe(seen.length)
      expect(original.filter((id) => !seen.includes(id))).toEqual([])
      if (sort === 'new') {
        const rows = await db().wallWork.findMany({ where: { id: { in: original } }, select: { id: true, listedAt: true } })
        const expected = rows.sort((a, b) => b.listedAt!.getTime() - a.listedAt!.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id)
        expect(seen.filter((id) => original.includes(id))).toEqual(expected)
      }
    }
    const last = await wall({ limit: 60, sort: 'new' })
    expect(last.nextCursor).toBeNull()
    expect((await callRoute(wallRoute.GET, { query: { limit: 61 } })).status).toBe(400)
    expect((await callRoute(wallRoute.GET, { query: { cursor: 'not-a-cursor' } })).status).toBe(400)
    // Forged cursors that parse but could not be compared: a 400 as well, never a 500.
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const [sort, cursor] of [
      ['new', forged([9e15, 'x'])],
      ['hot', forged([3e9, 'x'])],
      ['new', forged([1, 'x\u0000'])],
    ] as const)
      expect((await callRoute(wallRoute.GET, { query: { sort, cursor } })).status).toBe(400)
  })

  it('likes: once per user, the counter kept with the rows, even when they race; favourites per user', async () => {
    const model = await createModel({ name: 'wall-likes' })
    const owner = await createUser()
    const workId = (await seedWorks(owner.id, model.id, 1))[0]!
    await db().wallWork.update({ where: { id: workId }, data: { likes: 0 } })
    const fans = await Promise.all(Array.from({ length: 8 }, () => createUser()))
    const fan = fans[0]!

    expect((await callRoute(likeRoute.POST, { params: { id: workId } })).status).toBe(401)
    const first = await callRoute(likeRoute.POST, { token: fan.token, params: { id: workId } })
    expect(first.body.data).toEqual({ liked: true, likes: 1 })
    const listed = (await wall({}, fan.token)).list.find((w) => w.id === workId)
    expect(listed).toMatchObject({ liked: true, likes: 1 })
    expect((await wall({}, fans[1]!.token)).list.find((w) => w.id === workId)).toMatchObject({ liked: false })
    expect((await callRoute(likeRoute.POST, { token: fan.token, params: { id: workId } })).body.data).toEqual({ liked: false, likes: 0 })

    await Promise.all(fans.map((f) => callRoute(likeRoute.POST, { token: f.token, params: { id: workId } })))
    // One user pressing twice at once: the row is there or not, and the counter agrees.
    await Promise.all([0, 1, 2].map(() => callRoute(likeRoute.POST, { token: fan.token, params: { id: workId } })))
    const rows = await db().wallLike.count({ where: { workId } })
    expect((await db().wallWork.findUniqueOrThrow({ where: { id: workId } })).likes).toBe(rows)
    expect(rows).toBeGreaterThanOrEqual(7)
    expect(await db().wallLike.count({ where: { workId, userId: fan.id } })).toBeLessThanOrEqual(1)
    expect((await callRoute(likeRoute.POST, { token: fan.token, params: { id: 'missing' } })).status).toBe(404)

    // 收藏: per user, listed back with favorites=1 (signed in only).
    expect((await callRoute(favoriteRoute.POST, { token: fan.token, params: { id: workId } })).body.data).toEqual({ favorited: true })
    expect((await wall({ favorites: 1 }, fan.token)).list.map((w) => w.id)).toEqual([workId])
    expect((await wall({ favorites: 1 }, fans[1]!.token)).list).toEqual([])
    expect((await callRoute(wallWorkRoute.GET, { token: fan.token, params: { id: workId } })).body.data.favorited).toBe(true)
    expect((await callRoute(wallRoute.GET, { query: { favorites: 1 } })).status).toBe(401)
    expect((await callRoute(favoriteRoute.POST, { token: fan.token, params: { id: workId } })).body.data).toEqual({ favorited: false })
    expect((await wall({ favorites: 1 }, fan.token)).list).toEqual([])
  })

  it('showcase collections: the admin assembles them; hidden works drop out; only works on the wall can go in', async () => {
    const model = await createModel({ name: 'wall-showcase' })
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser()
    const [a, b, c] = (await seedWorks(owner.id, model.id, 3)) as [string, string, string]
    const pendingWork = (await seedWorks(owner.id, model.id, 1, 'PENDING'))[0]!
    const bad = await callRoute(adminShowcaseRoute.POST, { token: admin.token, body: { title: '冬日', workIds: [a, pendingWork] } })
    expect(bad.status).toBe(400)
    expect(bad.body.errMessage).toBe('合集只能包含已上墙的作品')
    const created = await callRoute(adminShowcaseRoute.POST, { token: admin.token, body: { title: '冬日', coverWorkId: b, workIds: [b, a, c], sort: 5 } })
    expect(created.status).toBe(200)
    const id = created.body.data.id
    let list = (await callRoute(showcaseRoute.GET)).body.data
    const mine = list.find((s: { id: number }) => s.id === id)
    expect(mine.works.map((w: WallItem) => w.id)).toEqual([b, a, c])
    expect(mine.cover.thumbUrl).toBe(mine.works[0].thumbUrl)
    await callRoute(hideRoute.POST, { token: admin.token, params: { id: a } })
    list = (await callRoute(showcaseRoute.GET)).body.data
    expect(list.find((s: { id: number }) => s.id === id).works.map((w: WallItem) => w.id)).toEqual([b, c])
    expect(
      (
        await callRoute(adminShowcaseItemRoute.PATCH, {
          method: 'PATCH',
          token: admin.token,
          params: { id: String(id) },
          body: { title: '冬夜', workIds: [c] },
        })
      ).status,
    ).toBe(200)
    list = (await callRoute(showcaseRoute.GET)).body.data
    expect(list.find((s: { id: number }) => s.id === id)).toMatchObject({ title: '冬夜' })
    expect((await callRoute(adminShowcaseItemRoute.DELETE, { method: 'DELETE', token: admin.token, params: { id: String(id) } })).status).toBe(200)
    expect((await callRoute(adminShowcaseRoute.POST, { token: owner.token, body: { title: 'x' } })).status).toBe(403)
  })
})
