// A model's type must be one its backend can run: an SD WebUI cannot run Midjourney jobs, so
// POST /api/admin/models and PATCH /api/admin/models/{id} answer 400 for an MJ model on it
// (the console’s form refuses the pair before it sends). A VIDEO model runs only on a video
// backend, ComfyUI or the demo, and a video backend runs only VIDEO models.
import { beforeAll, describe, expect, it } from 'vitest'
import * as modelRoute from '@/app/api/admin/models/[id]/route'
import * as modelsRoute from '@/app/api/admin/models/route'
import { db } from '@/lib/db'
import { MJ_ON_SD_WEBUI_MESSAGE, NO_LAST_FRAME_MESSAGE, VIDEO_BACKEND_MESSAGE, VIDEO_PAIR_MESSAGE } from '@/lib/models/rules'
import { callRoute, createUser } from '../helpers/call-route'

let admin: { token: string }
beforeAll(async () => {
  admin = await createUser({ role: 'ADMIN' })
})

const create = (body: Record<string, unknown>) => callRoute(modelsRoute.POST, { token: admin.token, body })
const patch = (id: string, body: Record<string, unknown>) => callRoute(modelRoute.PATCH, { method: 'PATCH', token: admin.token, params: { id }, body })
const sdWebui = { backend: 'sd-webui', endpoint: 'http://127.0.0.1:7860' }
const mjProxy = { backend: 'mj-proxy', endpoint: 'http://127.0.0.1:8080' }

describe('model type and backend', () => {
  it('refuses to create an MJ model on an SD WebUI backend (400, nothing stored)', async () => {
    const before = await db().aiModel.count()
    const res = await create({ name: 'MJ on WebUI', type: 'MID_JOURNEY', ...sdWebui, prices: { MJ_IMAGINE: 5 } })
    expect([res.status, res.body.errMessage]).toEqual([400, MJ_ON_SD_WEBUI_MESSAGE])
    expect(await db().aiModel.count()).toBe(before)
  })

  it('still creates SD models on an SD WebUI and MJ models on the Midjourney proxy', async () => {
    expect((await create({ name: 'SD', type: 'STABLE_DIFFUSION', ...sdWebui })).status).toBe(200)
    expect((await create({ name: 'MJ', type: 'MID_JOURNEY', ...mjProxy })).status).toBe(200)
  })

  it('refuses an update that makes the pair, whichever side changes, and leaves the model as it was', async () => {
    const sd = (await create({ name: 'SD 改类型', type: 'STABLE_DIFFUSION', ...sdWebui })).body.data.id as string
    const toMj = await patch(sd, { type: 'MID_JOURNEY' })
    expect([toMj.status, toMj.body.errMessage]).toEqual([400, MJ_ON_SD_WEBUI_MESSAGE])

    const mj = (await create({ name: 'MJ 改后端', type: 'MID_JOURNEY', ...mjProxy })).body.data.id as string
    const toWebui = await patch(mj, sdWebui)
    expect([toWebui.status, toWebui.body.errMessage]).toEqual([400, MJ_ON_SD_WEBUI_MESSAGE])
    const both = await patch(mj, { type: 'MID_JOURNEY', ...sdWebui })
    expect(both.status).toBe(400)

    const rows = await db().aiModel.findMany({ where: { id: { in: [sd, mj] } }, select: { id: true, type: true, backend: true } })
    expect(rows.sort((a, b) => (a.id === sd ? -1 : b.id === sd ? 1 : 0))).toEqual([
      { id: sd, type: 'STABLE_DIFFUSION', backend: 'sd-webui' },
      { id: mj, type: 'MID_JOURNEY', backend: 'mj-proxy' },
    ])
  })
})

describe('video models', () => {
  it('a VIDEO model runs on a video backend, ComfyUI or the demo; nowhere else, and video backends run nothing else', async () => {
    const ark = { backend: 'ark-video', endpoint: 'https://ark.example.com' }
    const made = await create({ name: 'Seedance', type: 'VIDEO', ...ark, prices: { VIDEO_TEXT2VIDEO: 10, VIDEO_PER_SECOND: 2 }, options: { model: 'm' } })
    expect(made.status).toBe(200)
    expect(made.body.data).toMatchObject({ type: 'VIDEO', backend: 'ark-video', prices: { VIDEO_TEXT2VIDEO: 10, VIDEO_PER_SECOND: 2 } })
    for (const backend of ['dashscope-video', 'openai-video', 'comfyui'])
      expect((await create({ name: backend, type: 'VIDEO', backend, endpoint: 'http://127.0.0.1:1' })).status).toBe(200)
    expect((await create({ name: 'demo', type: 'VIDEO', backend: 'demo' })).status).toBe(200)

    const onWebui = await create({ name: 'video on WebUI', type: 'VIDEO', ...sdWebui })
    expect([onWebui.status, onWebui.body.errMessage]).toEqual([400, VIDEO_PAIR_MESSAGE])
    const sdOnArk = await create({ name: 'SD on Ark', type: 'STABLE_DIFFUSION', ...ark })
    expect([sdOnArk.status, sdOnArk.body.errMessage]).toEqual([400, VIDEO_BACKEND_MESSAGE])
    const toSd = await patch(made.body.data.id as string, { type: 'STABLE_DIFFUSION' })
    expect([toSd.status, toSd.body.errMessage]).toEqual([400, VIDEO_BACKEND_MESSAGE])
  })

  it('a last frame only where the protocol has a field for it: /v1/videos takes the first frame alone', async () => {
    const relay = { type: 'VIDEO', backend: 'openai-video', endpoint: 'http://127.0.0.1:1' }
    const before = await db().aiModel.count()
    const made = await create({ name: 'sora 尾帧', ...relay, options: { model: 'sora-2', lastFrame: true } })
    expect([made.status, made.body.errMessage]).toEqual([400, NO_LAST_FRAME_MESSAGE])
    expect(await db().aiModel.count()).toBe(before)

    const plain = (await create({ name: 'sora', ...relay, options: { model: 'sora-2' } })).body.data.id as string
    const turnedOn = await patch(plain, { options: { model: 'sora-2', lastFrame: true } })
    expect([turnedOn.status, turnedOn.body.errMessage]).toEqual([400, NO_LAST_FRAME_MESSAGE])
    expect((await db().aiModel.findUniqueOrThrow({ where: { id: plain } })).options).toEqual({ model: 'sora-2' })
    // Ark and DashScope send both frames.
    for (const backend of ['ark-video', 'dashscope-video'])
      expect((await create({ name: `${backend} 尾帧`, type: 'VIDEO', backend, endpoint: 'http://127.0.0.1:1', options: { lastFrame: true } })).status).toBe(200)
  })
})
