import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { postMovement } from '@/lib/ledger/post-movement'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { expectLedgerInvariants } from '../helpers/ledger-fixtures'
import { createModel, drainQueue } from '../helpers/tasks'
import { at } from '../helpers/present'

let sd: FakeSd
beforeAll(async () => {
  sd = await startFakeSdWebui()
})
afterAll(async () => {
  await sd.close()
})

type Body = { type: string; modelId?: string; params: Record<string, unknown> }
const submit = (token: string, body: Body, headers?: Record<string, string>) => callRoute(tasksRoute.POST, { token, body, headers })
const points = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).points
const ledger = async (taskId: string) =>
  (await db().ledgerEntry.findMany({ where: { reference: { startsWith: `task:${taskId}:` } }, orderBy: { id: 'asc' } })).map((r) => [r.kind, r.amount])
const task = (id: string) => db().task.findUniqueOrThrow({ where: { id } })

describe('Idempotency-Key', () => {
  it('the same inputs replay the first task (whatever the order of their keys); other inputs under the key are a 409 that writes nothing', async () => {
    const model = await createModel({ name: 'idem', prices: { SD_TEXT2IMG: 10 } })
    const other = await createModel({ name: 'idem-other', prices: { SD_TEXT2IMG: 10 } })
    const user = await createUser({ points: 100 })
    const key = { 'idempotency-key': 'form-7f3c' }
    const first = await submit(user.token, { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '雪山', width: 256, height: 256, count: 1 } }, key)
    expect(first.status).toBe(200)
    const replay = await submit(user.token, { params: { count: 1, height: 256, width: 256, prompt: '雪山' }, modelId: model.id, type: 'SD_TEXT2IMG' }, key)
    expect(replay.status).toBe(200)
    expect(replay.body.data.id).toBe(first.body.data.id)
    expect(replay.body.data).not.toHaveProperty('requestHash')

    const refusals = [
      { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '雪山', width: 256, height: 256, count: 2 } },
      { type: 'SD_TEXT2IMG', modelId: model.id, params: { prompt: '大海', width: 256, height: 256, count: 1 } },
      { type: 'SD_TEXT2IMG', modelId: other.id, params: { prompt: '雪山', width: 256, height: 256, count: 1 } },
      { type: 'SD_TEXT2IMG', params: { prompt: '雪山', width: 256, height: 256, count: 1 } },
    ]
    for (const body of refusals) {
      const res = await submit(user.token, body, key)
      expect(res.status).toBe(409)
      expect(res.body.errMessage).toBe('这个 Idempotency-Key 已用于另一次内容不同的提交（任务类型、模型或参数不一致），请为新的提交使用新的 Key')
    }
    expect(await db().task.count({ where: { userId: user.id } })).toBe(1)
    expect(await points(user.id)).toBe(90)
    expect((await task(first.body.data.id)).requestHash).toMatch(/^[0-9a-f]{64}$/)
    // Another user may use the same key for anything.
    const stranger = await createUser({ points: 100 })
    expect((await submit(stranger.token, at(refusals, 1), key)).status).toBe(200)
    await drainQueue()
  })
})

describe('做同款 and 小狸猫', () => {
  it('做同款 (MAKE_SAME): a recommended work’s prompt and parameters become a new task on its model, charged at that model’s price', async () => {
    const model = await createModel({ name: 'same-sd', backend: 'sd-webui', endpoint: sd.url, prices: { SD_TEXT2IMG: 6 }, concurrency: 1 })
    const author = await createUser({ points: 100 })
    const sourceParams = {
      prompt: '水墨山水，远山',
      negativePrompt: 'lowres',
      width: 512,
      height: 768,
      steps: 12,
      cfgScale: 5.5,
      seed: 42,
      sampler: 'DPM++ 2M',
      count: 2,
    }
    const source = (await submit(author.token, { type: 'SD_TEXT2IMG', modelId: model.id, params: sourceParams })).body.data
    await drainQueue()
    expect((await task(source.id)).status).toBe('SUCCESS')

    const fan = await createUser({ points: 100 })
    // Not recommended yet, and not the fan's own: not found, nothing charged.
    const hidden = await submit(fan.token, { type: 'MAKE_SAME', params: { sourceTaskId: source.id } })
    expect(hidden.status).toBe(404)
    expect(await points(fan.id)).toBe(100)
    await db().task.update({ where: { id: source.id }, data: { isRecommended: true } })

    // A seed is what SD accepts, as for any other task: nothing charged for one beyond it.
    const pointsBefore = (await db().user.findUniqueOrThrow({ where: { id: fan.id } })).points
    const huge = await submit(fan.token, { type: 'MAKE_SAME', params: { sourceTaskId: source.id, seed: Number.MAX_SAFE_INTEGER } })
    expect(huge.status).toBe(400)
    expect((await db().user.findUniqueOrThrow({ where: { id: fan.id } })).points).toBe(pointsBefore)
    const res = await submit(fan.token, { type: 'MAKE_SAME', params: { sourceTaskId: source.id, seed: 7 } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ type: 'MAKE_SAME', chargedPoints: 12, parentId: source.id, model: { id: model.id } })
    await drainQueue()
    const copy = await task(res.body.data.id)
    expect(copy).toMatchObject({ status: 'SUCCESS', modelId: model.id })
    expect(copy.params).toMatchObject({ ...sourceParams, seed: 7, sourceTaskId: source.id, baseType: 'SD_TEXT2IMG' })
    expect(copy.results).toHaveLength(2)
    expect(sd.bodies('/sdapi/v1/txt2img').at(-1)).toMatchObject({
      prompt: sourceParams.prompt,
      negative_prompt: 'lowres',
      width: 512,
      height: 768,
      steps: 12,
      cfg_scale: 5.5,
      sampler_name: 'DPM++ 2M',
      seed: 7,
      batch_size: 2,
      force_task_id: copy.id,
    })
    expect(await ledger(copy.id)).toEqual([['TASK_CHARGE', -12]])
    expect(await points(fan.id)).toBe(88)
  })

  it('小狸猫 (SD_XIAOLIMAO): the preset’s defaults, trigger words and checkpoint apply, at the preset’s own price', async () => {
    const model = await createModel({
      name: 'xlm-sd',
      backend: 'sd-webui',
      endpoint: sd.url,
      checkpoint: 'sd15.safetensors',
      prices: { SD_TEXT2IMG: 50 },
      concurrency: 1,
    })
    const preset = await db().customModel.create({
      data: {
        name: '小狸猫·水彩',
        modelId: model.id,
        checkpoint: 'anything-v5.safetensors',
        triggerWords: 'xlm watercolor',
        defaultParams: { steps: 28, cfgScale: 6, width: 512, height: 768, negativePrompt: 'blurry' },
        price: 7,
      },
    })
    const user = await createUser({ points: 30 })
    const res = await submit(user.token, { type: 'SD_XIAOLIMAO', params: { customModelId: preset.id, prompt: '一只猫', count: 2, steps: 20 } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ type: 'SD_XIAOLIMAO', chargedPoints: 14, model: { id: model.id } })
    expect(await points(user.id)).toBe(16)
    await drainQueue()
    const done = await task(res.body.data.id)
    expect(done).toMatchObject({ status: 'SUCCESS', customModelId: preset.id })
    expect(done.params).toMatchObject({ prompt: 'xlm watercolor, 一只猫', userPrompt: '一只猫', steps: 20, cfgScale: 6, width: 512, height: 768, count: 2 })
    expect(done.results).toHaveLength(2)
    expect(sd.bodies('/sdapi/v1/txt2img').at(-1)).toMatchObject({
      prompt: 'xlm watercolor, 一只猫',
      negative_prompt: 'blurry',
      steps: 20,
      cfg_scale: 6,
      width: 512,
      height: 768,
      batch_size: 2,
      override_settings: { sd_model_checkpoint: 'anything-v5.safetensors' },
    })
    expect(await ledger(done.id)).toEqual([['TASK_CHARGE', -14]])

    // 做同款 of it runs with the same style model, at the preset's price.
    const again = await submit(user.token, { type: 'MAKE_SAME', params: { sourceTaskId: done.id } })
    expect(again.status, again.body.errMessage).toBe(200)
    expect(again.body.data).toMatchObject({ type: 'MAKE_SAME', chargedPoints: 14, model: { id: model.id } })
    await drainQueue()
    expect(await task(again.body.data.id)).toMatchObject({ status: 'SUCCESS', customModelId: preset.id })
    expect(sd.bodies('/sdapi/v1/txt2img').at(-1)).toMatchObject({
      prompt: 'xlm watercolor, 一只猫',
      override_settings: { sd_model_checkpoint: 'anything-v5.safetensors' },
    })
    await db().$transaction((tx) =>
      postMovement(tx, { userId: user.id, account: 'POINTS', kind: 'ADMIN_ADJUST', amount: 14, reference: `test:${again.body.data.id}` }),
    )

    // A description that fits on its own but not after the trigger words: a 400 that says how long it may be.
    const long = await submit(user.token, { type: 'SD_XIAOLIMAO', params: { customModelId: preset.id, prompt: '猫'.repeat(1990) } })
    expect([long.status, long.body.errMessage]).toEqual([400, '加上风格词后提示词超过 2000 个字符，请把补充描述缩短到 1984 个字符以内'])
    expect(await points(user.id)).toBe(16)

    // A disabled preset is refused before anything is charged, and so is 做同款 of its works.
    await db().customModel.update({ where: { id: preset.id }, data: { enabled: false } })
    const refused = await submit(user.token, { type: 'SD_XIAOLIMAO', params: { customModelId: preset.id, prompt: '一只猫' } })
    expect(refused.status).toBe(404)
    expect((await submit(user.token, { type: 'MAKE_SAME', params: { sourceTaskId: done.id } })).status).toBe(404)
    expect(await points(user.id)).toBe(16)
    await expectLedgerInvariants()
  })
})
