// A PATCH changes what it names and nothing else (the create schema's defaults must not
// creep in and reset the fields it leaves out).
import { beforeAll, describe, expect, it } from 'vitest'
import * as customModelsRoute from '@/app/api/admin/custom-models/route'
import * as customModelRoute from '@/app/api/admin/custom-models/[id]/route'
import * as publicPresetsRoute from '@/app/api/custom-models/route'
import * as promptsRoute from '@/app/api/admin/prompts/route'
import * as promptRoute from '@/app/api/admin/prompts/[id]/route'
import { callRoute, createUser } from '../helpers/call-route'
import { expectFail } from '../helpers/expect-response'
import { createModel } from '../helpers/tasks'

let adminToken: string
beforeAll(async () => {
  adminToken = (await createUser({ role: 'ADMIN' })).token
})

describe('PATCH keeps what it does not name', () => {
  it('a style preset', async () => {
    const model = await createModel({ name: 'sd', backend: 'sd-webui', endpoint: 'http://127.0.0.1:9', concurrency: 1 })
    const created = await callRoute(customModelsRoute.POST, {
      token: adminToken,
      body: {
        name: '小狸猫',
        modelId: model.id,
        lora: 'xiaolimao_v2',
        triggerWords: 'xlm style',
        defaultParams: { steps: 30 },
        price: 5,
        enabled: false,
        sort: 7,
      },
    })
    expect(created.status).toBe(200)
    const patched = await callRoute(customModelRoute.PATCH, {
      method: 'PATCH',
      token: adminToken,
      params: { id: String(created.body.data.id) },
      body: { price: 8 },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({
      price: 8,
      lora: 'xiaolimao_v2',
      triggerWords: 'xlm style',
      defaultParams: { steps: 30 },
      enabled: false,
      sort: 7,
    })
  })

  it('a prompt template', async () => {
    const created = await callRoute(promptsRoute.POST, {
      token: adminToken,
      body: { category: '人像', title: '猫', prompt: 'a cat', negativePrompt: 'blurry', sort: 3, enabled: false },
    })
    expect(created.status).toBe(200)
    const patched = await callRoute(promptRoute.PATCH, {
      method: 'PATCH',
      token: adminToken,
      params: { id: String(created.body.data.id) },
      body: { title: '小猫' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ title: '小猫', negativePrompt: 'blurry', sort: 3, enabled: false })
  })
})

describe('what users see of a preset', () => {
  it("is its name, cover, trigger words and price: never the operator's checkpoint, LoRA, default parameters or backend", async () => {
    const model = await createModel({ name: 'sd-offered', backend: 'sd-webui', endpoint: 'http://127.0.0.1:9', concurrency: 1 })
    const created = await callRoute(customModelsRoute.POST, {
      token: adminToken,
      body: {
        name: '水彩风',
        modelId: model.id,
        checkpoint: 'secret-mix.safetensors',
        lora: 'watercolor_v3',
        triggerWords: 'watercolor',
        defaultParams: { steps: 28 },
        price: 4,
      },
    })
    expect(created.status, created.body.errMessage).toBe(200)
    const offered = await callRoute(publicPresetsRoute.GET, {})
    const shown = (offered.body.data as Array<{ id: number }>).find((p) => p.id === created.body.data.id)
    expect(shown).toEqual({ id: created.body.data.id, name: '水彩风', triggerWords: 'watercolor', cover: null, price: 4 })
  })
})

describe('covers', () => {
  it('are a path on this site or an http(s) address, as the logo is', async () => {
    const model = await createModel({ name: 'sd-covers', backend: 'sd-webui', endpoint: 'http://127.0.0.1:9', concurrency: 1 })
    const refusal = '请输入以 / 开头的本站路径或 http(s):// 开头的地址'
    for (const cover of ['javascript:alert(1)', '//tracker.example/p.gif', 'data:image/svg+xml,<svg/>']) {
      const preset = await callRoute(customModelsRoute.POST, { token: adminToken, body: { name: '封面', modelId: model.id, price: 1, cover } })
      expectFail(preset, 400, refusal)
      const prompt = await callRoute(promptsRoute.POST, { token: adminToken, body: { category: '人像', title: '封面', prompt: 'a cat', cover } })
      expectFail(prompt, 400, refusal)
    }
    const fine = await callRoute(promptsRoute.POST, {
      token: adminToken,
      body: { category: '人像', title: '封面', prompt: 'a cat', cover: '/files/prompts/cat.png' },
    })
    expect(fine.status, fine.body.errMessage).toBe(200)
  })
})
