// 小狸猫 presets with a LoRA: SD WebUI gets A1111's <lora:name:weight> in the prompt,
// ComfyUI a LoraLoader node (never the A1111 syntax as text), and a backend that cannot
// load a LoRA is refused when the preset is saved, or fails with a refund if the model
// behind a preset changes later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as customModelsRoute from '@/app/api/admin/custom-models/route'
import * as customModelRoute from '@/app/api/admin/custom-models/[id]/route'
import * as modelRoute from '@/app/api/admin/models/[id]/route'
import * as tasksRoute from '@/app/api/tasks/route'
import { db } from '@/lib/db'
import { startFakeComfyui, type FakeComfy } from '../fakes/comfyui'
import { startFakeSdWebui, type FakeSd } from '../fakes/sd-webui'
import { callRoute, createUser } from '../helpers/call-route'
import { createModel, drainQueue } from '../helpers/tasks'
import { nodeOf } from '../fakes/comfyui-nodes'
import { only } from '../helpers/present'

let sd: FakeSd
let comfy: FakeComfy
let adminToken: string

beforeAll(async () => {
  sd = await startFakeSdWebui()
  comfy = await startFakeComfyui({ checkpoints: ['sd15.safetensors'] })
  adminToken = (await createUser({ role: 'ADMIN' })).token
})
afterAll(async () => {
  await sd.close()
  await comfy.close()
})

const preset = (modelId: string, extra: Record<string, unknown> = {}) =>
  callRoute(customModelsRoute.POST, {
    token: adminToken,
    body: { name: '小狸猫', modelId, lora: 'xiaolimao_v2', triggerWords: 'xlm style', price: 5, ...extra },
  })

async function runPreset(customModelId: number) {
  const user = await createUser({ points: 50 })
  const res = await callRoute(tasksRoute.POST, {
    token: user.token,
    body: { type: 'SD_XIAOLIMAO', params: { customModelId, prompt: '一只小狸猫', width: 256, height: 256, steps: 4 } },
  })
  expect(res.status).toBe(200)
  await drainQueue()
  return { user, task: await db().task.findUniqueOrThrow({ where: { id: res.body.data.id } }) }
}

describe('小狸猫 LoRA per backend', () => {
  it('SD WebUI: the LoRA is added to the prompt in A1111 syntax', async () => {
    const model = await createModel({ name: 'sd', backend: 'sd-webui', endpoint: sd.url, checkpoint: 'sd15.safetensors', concurrency: 1 })
    const created = await preset(model.id)
    expect(created.status).toBe(200)
    const { task } = await runPreset(created.body.data.id)
    expect(task.status).toBe('SUCCESS')
    expect(sd.bodies('/sdapi/v1/txt2img').at(-1)!.prompt).toBe('xlm style, 一只小狸猫 <lora:xiaolimao_v2:0.8>')
  })

  it('ComfyUI: a LoraLoader node carries the LoRA and the prompt text stays clean', async () => {
    const model = await createModel({
      name: 'comfy',
      backend: 'comfyui',
      endpoint: comfy.url,
      checkpoint: 'sd15.safetensors',
      options: { pollIntervalMs: 20 },
      concurrency: 1,
    })
    const created = await preset(model.id)
    const { task } = await runPreset(created.body.data.id)
    expect(task.status).toBe('SUCCESS')
    const graph = comfy.prompts().at(-1)!.prompt
    const loras = Object.values(graph).filter((node) => node.class_type === 'LoraLoader')
    expect(loras).toHaveLength(1)
    expect(only(loras).inputs).toMatchObject({ lora_name: 'xiaolimao_v2.safetensors', strength_model: 0.8 })
    expect(nodeOf(graph, '2').inputs.text).toBe('xlm style, 一只小狸猫')
    expect(JSON.stringify(graph)).not.toContain('<lora:')
  })

  it('a preset with a LoRA cannot be bound to OpenAI images or Midjourney; without one it can', async () => {
    const openai = await createModel({ name: 'openai', backend: 'openai-images', endpoint: 'https://api.openai.example/v1' })
    const mj = await createModel({ name: 'mj', backend: 'mj-proxy', endpoint: 'https://mj.example' })
    const before = await db().customModel.count()
    for (const model of [openai, mj]) {
      const refused = await preset(model.id)
      expect(refused.status).toBe(400)
      expect(refused.body.errMessage).toMatch(/不能加载 LoRA/)
    }
    expect(await db().customModel.count()).toBe(before)

    const plain = await preset(openai.id, { lora: null })
    expect(plain.status).toBe(200)
    const addLora = await callRoute(customModelRoute.PATCH, {
      token: adminToken,
      method: 'PATCH',
      params: { id: String(plain.body.data.id) },
      body: { lora: 'xiaolimao_v2' },
    })
    expect(addLora.status).toBe(400)
    expect(await db().customModel.findUniqueOrThrow({ where: { id: plain.body.data.id } })).toMatchObject({ lora: null })
    const sdModel = await createModel({ name: 'sd-2', backend: 'sd-webui', endpoint: sd.url })
    const withLora = await preset(sdModel.id)
    const moveToOpenai = await callRoute(customModelRoute.PATCH, {
      token: adminToken,
      method: 'PATCH',
      params: { id: String(withLora.body.data.id) },
      body: { name: '小狸猫', modelId: openai.id, lora: 'xiaolimao_v2', triggerWords: 'xlm style', price: 5 },
    })
    expect(moveToOpenai.status).toBe(400)
    expect(await db().customModel.findUniqueOrThrow({ where: { id: withLora.body.data.id } })).toMatchObject({ modelId: sdModel.id, lora: 'xiaolimao_v2' })
  })

  it('the console refuses to switch a model to a backend that cannot load the LoRA of a preset bound to it', async () => {
    const model = await createModel({ name: 'sd-keeps-lora', backend: 'sd-webui', endpoint: sd.url })
    await preset(model.id)
    const switched = await callRoute(modelRoute.PATCH, {
      token: adminToken,
      method: 'PATCH',
      params: { id: model.id },
      body: { backend: 'openai-images', endpoint: 'https://api.openai.example/v1', secret: 'sk-test' },
    })
    expect([switched.status, switched.body.errMessage]).toEqual([
      400,
      '有带 LoRA 的风格模型绑定在这个模型上，而所选后端不能加载 LoRA：请先清空它们的 LoRA 或改绑其他模型',
    ])
    expect(await db().aiModel.findUniqueOrThrow({ where: { id: model.id } })).toMatchObject({ backend: 'sd-webui' })
    // A model already on such a backend (switched before this check) can still be switched off.
    await db().aiModel.update({ where: { id: model.id }, data: { backend: 'openai-images', endpoint: 'https://api.openai.example/v1' } })
    const off = await callRoute(modelRoute.PATCH, { token: adminToken, method: 'PATCH', params: { id: model.id }, body: { enabled: false } })
    expect(off.status, off.body.errMessage).toBe(200)
  })

  it('a preset whose model was switched to OpenAI images later fails clearly, with its points refunded', async () => {
    const model = await createModel({ name: 'sd-then-openai', backend: 'sd-webui', endpoint: sd.url })
    const created = await preset(model.id)
    await db().aiModel.update({ where: { id: model.id }, data: { backend: 'openai-images', endpoint: 'https://api.openai.example/v1' } })
    const { user, task } = await runPreset(created.body.data.id)
    expect(task).toMatchObject({ status: 'FAIL', errorCode: 'REJECTED' })
    expect(JSON.stringify(task.backendLog)).toMatch(/不能加载 LoRA/)
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).points).toBe(50)
  })

  it('a queued task runs with the checkpoint and LoRA it was sold with, however the preset is edited meanwhile', async () => {
    const model = await createModel({ name: 'sd-edited', backend: 'sd-webui', endpoint: sd.url, concurrency: 1 })
    const created = await preset(model.id, { checkpoint: 'anime_v1.safetensors' })
    const id = String(created.body.data.id)
    const user = await createUser({ points: 50 })
    const submitted = await callRoute(tasksRoute.POST, {
      token: user.token,
      body: { type: 'SD_XIAOLIMAO', params: { customModelId: created.body.data.id, prompt: '一只小狸猫', width: 256, height: 256, steps: 4 } },
    })
    expect(submitted.status).toBe(200)
    const edited = await callRoute(customModelRoute.PATCH, {
      token: adminToken,
      method: 'PATCH',
      params: { id },
      body: { checkpoint: 'other_v9.safetensors', lora: 'another_lora' },
    })
    expect(edited.status, edited.body.errMessage).toBe(200)
    await drainQueue()
    expect((await db().task.findUniqueOrThrow({ where: { id: submitted.body.data.id } })).status).toBe('SUCCESS')
    const sent = sd.bodies('/sdapi/v1/txt2img').at(-1)!
    expect(sent.prompt).toBe('xlm style, 一只小狸猫 <lora:xiaolimao_v2:0.8>')
    expect(sent.override_settings).toMatchObject({ sd_model_checkpoint: 'anime_v1.safetensors' })
  })

  it('default parameters are checked when the preset is saved, as the submits that merge them will be', async () => {
    const model = await createModel({ name: 'sd-defaults', backend: 'sd-webui', endpoint: sd.url })
    const before = await db().customModel.count()
    for (const defaultParams of [{ cfg_scale: 7 }, { steps: 5000 }, { width: 'wide' }]) {
      const refused = await preset(model.id, { defaultParams })
      expect([refused.status, refused.body.errMessage]).toEqual([400, expect.stringContaining('默认参数不正确')])
    }
    expect(await db().customModel.count()).toBe(before)
    const good = await preset(model.id, { defaultParams: { steps: 20, cfgScale: 6 } })
    expect(good.status, good.body.errMessage).toBe(200)
    const patched = await callRoute(customModelRoute.PATCH, {
      token: adminToken,
      method: 'PATCH',
      params: { id: String(good.body.data.id) },
      body: { defaultParams: { cfg_scale: 7 } },
    })
    expect(patched.status).toBe(400)
  })
})
