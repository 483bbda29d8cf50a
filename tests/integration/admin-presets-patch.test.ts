// A PATCH changes what it names and nothing else (the create schema's defaults must not
// creep in and reset the fields it leaves out).
import { beforeAll, describe, expect, it } from 'vitest'
import * as customModelsRoute from '@/app/api/admin/custom-models/route'
import * as customModelRoute from '@/app/api/admin/custom-models/[id]/route'
import * as promptsRoute from '@/app/api/admin/prompts/route'
import * as promptRoute from '@/app/api/admin/prompts/[id]/route'
import { callRoute, createUser } from '../helpers/call-route'
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
