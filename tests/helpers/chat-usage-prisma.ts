import { db } from '@/lib/db'

/** GET /api/admin/chat-usage's answer as the Prisma queries chatUsage replaced gave it (the oracle of its test). */
export async function previousChatUsage(days: number, now = Date.now()) {
  const since = new Date(now - days * 24 * 60 * 60 * 1000)
  const where = { role: 'ASSISTANT' as const, createdAt: { gte: since } }
  const [byModel, byUser] = await Promise.all([
    db().chatMessage.groupBy({ by: ['modelId'], where, _count: { _all: true }, _sum: { points: true } }),
    db().chatMessage.groupBy({ by: ['userId'], where, _count: { _all: true }, _sum: { points: true }, orderBy: { _count: { userId: 'desc' } }, take: 50 }),
  ])
  const [models, users] = await Promise.all([
    db().chatModel.findMany({ where: { id: { in: byModel.map((r) => r.modelId) } }, select: { id: true, name: true } }),
    db().user.findMany({ where: { id: { in: byUser.map((r) => r.userId) } }, select: { id: true, username: true, name: true } }),
  ])
  const modelName = new Map(models.map((m) => [m.id, m.name]))
  const userName = new Map(users.map((u) => [u.id, u.name === u.username ? u.username : `${u.name}（${u.username}）`]))
  return {
    days,
    models: byModel
      .map((r) => ({ name: modelName.get(r.modelId) ?? r.modelId, messages: r._count._all, points: r._sum.points ?? 0 }))
      .sort((a, b) => b.messages - a.messages),
    users: byUser.map((r) => ({ name: userName.get(r.userId) ?? r.userId, messages: r._count._all, points: r._sum.points ?? 0 })),
  }
}
