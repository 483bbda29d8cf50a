// GET /api/admin/chat-usage in one statement (lib/chat/manage-chat-models.ts): the same answer, key
// for key and byte for byte, as the Prisma queries it replaced (tests/helpers/chat-usage-prisma.ts).
import { describe, expect, it } from 'vitest'
import * as chatUsageRoute from '@/app/api/admin/chat-usage/route'
import { chatUsage } from '@/lib/chat/manage-chat-models'
import { db } from '@/lib/db'
import { callRoute, createUser } from '../helpers/call-route'
import { previousChatUsage } from '../helpers/chat-usage-prisma'
import { rawCall } from '../helpers/sign-in'

const DAY = 24 * 60 * 60 * 1000

describe('GET /api/admin/chat-usage', () => {
  it('answers what the Prisma queries it replaced answered: per model, the top 50 users, names, gone users, the window', async () => {
    const admin = await createUser({ role: 'ADMIN' })
    const models = []
    for (const name of ['DeepSeek', '通义 "千问"', '识图'])
      models.push(await db().chatModel.create({ data: { name, endpoint: 'http://127.0.0.1:9/v1', model: 'm' } }))
    // 55 users, each a different number of answers (the Prisma queries left ties in no order): the top 50 is cut.
    const users = []
    for (let i = 0; i < 55; i++) users.push(await createUser({ name: i % 3 ? `用户 ${i}` : undefined }))
    const conversation = await db().chatConversation.create({ data: { userId: users[0]!.id, modelId: models[0]!.id, title: 't' } })
    const now = Date.now()
    const rows: { userId: string; modelId: string; role: 'USER' | 'ASSISTANT'; points: number; createdAt: Date }[] = []
    let answers = 0
    const answer = (userId: string, modelId: string, points: number, ago: number) =>
      rows.push(
        { userId, modelId, role: 'ASSISTANT', points, createdAt: new Date(now - ago) },
        { userId, modelId, role: 'USER', points: 0, createdAt: new Date(now - ago - 1) },
      )
    for (const [i, user] of users.entries())
      for (let k = 0; k <= i; k++) {
        // Models get 3 : 2 : 1 of them, and different totals.
        const model = models[[0, 0, 0, 1, 1, 2][answers++ % 6]!]!
        answer(user.id, model.id, (i + k) % 4, 60_000 + k * 1000)
      }
    // Answers of a user whose row is gone (the messages keep the id), two days old, and answers too old for 7 days.
    for (let k = 0; k < 60; k++) answer('gone-user-id', models[2]!.id, 1, 2 * DAY)
    for (let k = 0; k < 70; k++) answer(users[1]!.id, models[2]!.id, 5, 8 * DAY)
    await db().chatMessage.createMany({ data: rows.map((r, n) => ({ ...r, id: `usage-${n}`, conversationId: conversation.id, content: 'x' })) })

    for (const days of [1, 3, 7, 30]) {
      const before = await previousChatUsage(days, now)
      expect(before.users).toHaveLength(50)
      const answer = await chatUsage(days, now)
      expect(answer.value, `${days}`).toEqual(before)
      expect(answer.toJsonText(), `${days}`).toBe(JSON.stringify(before))
    }
    const seven = await previousChatUsage(7, now)
    expect(seven.users.map((u) => u.name)).toContain('gone-user-id')
    expect(seven.users.map((u) => u.name)).toContain(`用户 10（${users[10]!.username}）`)
    expect(seven.users.map((u) => u.name)).toContain(users[54]!.username)
    expect(seven.models.map((m) => m.name)).toEqual(['DeepSeek', '通义 "千问"', '识图'])

    // The route sends the statement's text in the envelope: the same bytes Response.json would send.
    const res = await rawCall(chatUsageRoute.GET, { token: admin.token, query: { days: '7' } })
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.text()).toBe(JSON.stringify({ success: true, data: await previousChatUsage(7, now) }))
    const none = await callRoute(chatUsageRoute.GET, { token: admin.token, query: { days: 1 } })
    expect(none.body.data.days).toBe(1)
    expect((await callRoute(chatUsageRoute.GET, { token: users[0]!.token })).status).toBe(403)
  })

  it('answers empty lists when nothing was answered', async () => {
    await db().chatMessage.deleteMany()
    expect((await chatUsage(7)).toJsonText()).toBe(JSON.stringify(await previousChatUsage(7)))
    expect((await chatUsage(7)).toJsonText()).toBe('{"days":7,"models":[],"users":[]}')
  })
})
