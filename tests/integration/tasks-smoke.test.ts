import { describe, expect, it } from 'vitest'
import sharp from 'sharp'
import * as tasksRoute from '@/app/api/tasks/route'
import * as taskRoute from '@/app/api/tasks/[id]/route'
import { db } from '@/lib/db'
import { readStoredFile } from '@/lib/storage/storage'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, drainQueue } from '../helpers/tasks'

describe('a task, the short way through', () => {
  it('charges, queues, runs on the demo renderer and stores images with thumbnails', async () => {
    await createModel()
    const user = await createUser({ points: 100 })
    const submitted = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_TEXT2IMG', params: { prompt: '一只猫', width: 256, height: 256, count: 2 } },
    })
    expect(submitted.status).toBe(200)
    expect(submitted.body.data).toMatchObject({ status: 'PENDING', stage: 'QUEUED', chargedPoints: 20 })
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(80)

    expect(await drainQueue()).toBe(1)
    const done = await callRoute(taskRoute.GET, { token: user.token, params: { id: submitted.body.data.id } })
    expect(done.body.data).toMatchObject({ status: 'SUCCESS', stage: 'DONE', progress: 100 })
    expect(done.body.data.results).toHaveLength(2)
    for (const image of done.body.data.results) {
      const png = await readStoredFile(image.url.replace('/files/', ''))
      const meta = await sharp(png!).metadata()
      expect(meta).toMatchObject({ format: 'png', width: 256, height: 256 })
      expect(meta.exif?.toString('latin1')).toContain('"AIGC"')
      const thumb = await sharp((await readStoredFile(image.thumbUrl.replace('/files/', '')))!).metadata()
      expect(thumb.format).toBe('webp')
    }
  })
})
