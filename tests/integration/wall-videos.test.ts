// AI clips on the wall: a finished video task is published like a picture, listed as type
// VIDEO with its MP4 and length (the poster as its images), filtered by type, and its detail
// and the console carry the clip; the database refuses a clip on a picture's work.
import { describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import * as publishRoute from '@/app/api/tasks/[id]/publish/route'
import * as wallRoute from '@/app/api/wall/route'
import * as wallWorkRoute from '@/app/api/wall/[id]/route'
import * as adminWallRoute from '@/app/api/admin/wall/route'
import * as approveRoute from '@/app/api/admin/wall/[id]/approve/route'
import { db } from '@/lib/db'
import type { StoredVideo } from '@/lib/generation/store-videos'
import type { WallItem, WallPage } from '@/lib/wall/schemas'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, createTaskRow, drainQueue } from '../helpers/tasks'

async function wall(query: Record<string, string | number> = {}): Promise<WallItem[]> {
  const res = await callRoute<WallPage>(wallRoute.GET, { query })
  expect(res.status).toBe(200)
  return res.body.data.list
}

describe('clips on the wall', () => {
  it('a finished clip is published, approved and listed as VIDEO with its MP4, poster and length', async () => {
    const model = await createModel({ name: 'demo-video', type: 'VIDEO', prices: { VIDEO_TEXT2VIDEO: 0 }, options: { stepMs: 0 } })
    await createModel({ name: 'wall-demo' })
    const admin = await createUser({ role: 'ADMIN' })
    const owner = await createUser({ points: 100 })
    const clip = await callRoute(tasksRoute.POST, {
      token: owner.token,
      body: { type: 'VIDEO_TEXT2VIDEO', modelId: model.id, params: { prompt: '海边奔跑的小狗', durationSec: 5, ratio: '16:9', resolution: '720p' } },
    })
    const picture = await callRoute(tasksRoute.POST, {
      token: owner.token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: '湖边的枫叶', width: 256, height: 256 } },
    })
    expect([clip.status, picture.status]).toEqual([200, 200])
    await drainQueue()
    const [stored] = (await db().task.findUniqueOrThrow({ where: { id: clip.body.data.id } })).videos as StoredVideo[]

    // A clip has one file: index 1 does not exist.
    const missing = await callRoute(publishRoute.POST, { token: owner.token, params: { id: clip.body.data.id }, body: { index: 1 } })
    expect(missing.status).toBe(409)
    expect(missing.body.errMessage).toBe('该作品没有这条视频')

    const published = await callRoute(publishRoute.POST, { token: owner.token, params: { id: clip.body.data.id }, body: {} })
    expect(published.status).toBe(200)
    expect(published.body.data.status).toBe('PENDING')
    const wallId: string = published.body.data.wallId
    const pending = await callRoute(adminWallRoute.GET, { token: admin.token, query: { status: 'PENDING' } })
    expect(pending.body.data.list).toEqual([expect.objectContaining({ id: wallId, type: 'VIDEO', videoUrl: stored!.url, thumbUrl: stored!.posterUrl })])
    expect((await callRoute(approveRoute.POST, { token: admin.token, params: { id: wallId } })).status).toBe(200)
    const pictureWall = await callRoute(publishRoute.POST, { token: owner.token, params: { id: picture.body.data.id }, body: {} })
    await callRoute(approveRoute.POST, { token: admin.token, params: { id: pictureWall.body.data.wallId } })

    const item = (await wall()).find((w) => w.id === wallId)
    expect(item).toMatchObject({
      type: 'VIDEO',
      prompt: '海边奔跑的小狗',
      model: 'demo-video',
      thumbUrl: stored!.posterUrl,
      imageUrl: stored!.posterUrl,
      width: 640,
      height: 360,
      video: { url: stored!.url, durationSec: 3 },
    })
    expect(stored!.url).toMatch(/^\/files\/results\/.+\.mp4$/)
    expect(stored!.posterUrl).toMatch(/\.poster\.webp$/)
    // Pictures carry no video field; the type filter keeps the two apart.
    expect((await wall()).find((w) => w.id === pictureWall.body.data.wallId)).not.toHaveProperty('video')
    expect((await wall({ type: 'VIDEO' })).map((w) => w.id)).toEqual([wallId])
    expect((await wall({ type: 'STABLE_DIFFUSION' })).map((w) => w.id)).toEqual([pictureWall.body.data.wallId])
    const detail = await callRoute(wallWorkRoute.GET, { params: { id: wallId } })
    expect(detail.body.data).toMatchObject({ id: wallId, type: 'VIDEO', video: { url: stored!.url, durationSec: 3 } })
  })

  it('the database keeps clips to VIDEO works and every VIDEO work with its clip', async () => {
    const model = await createModel({ name: 'demo' })
    const user = await createUser()
    const task = await createTaskRow(user.id, { modelId: model.id })
    const base = { taskId: task.id, userId: user.id, modelName: 'demo', imageUrl: '/files/a.png', thumbUrl: '/files/a.webp', width: 1, height: 1, prompt: '' }
    await expect(db().wallWork.create({ data: { ...base, modelType: 'STABLE_DIFFUSION', videoUrl: '/files/a.mp4' } })).rejects.toThrow(
      /WallWork_video_matches_type/,
    )
    await expect(db().wallWork.create({ data: { ...base, modelType: 'VIDEO' } })).rejects.toThrow(/WallWork_video_matches_type/)
    expect(await db().wallWork.count({ where: { taskId: task.id } })).toBe(0)
  })
})
