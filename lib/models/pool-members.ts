import 'server-only'
import type { Tx } from '@/lib/db'
import { badRequest } from '@/lib/http/app-error'

/**
 * Instances of one pool are interchangeable: a task queued for the pool runs on whichever is
 * free, charged at the price the user saw. So every member must be the same kind of backend
 * running the same type of model; a demo renderer or an SD WebUI among Midjourney proxies
 * would get real, paid tasks; Midjourney members offer the same speeds. Checked under a lock per pool name, so two saves at once
 * cannot each join a pool with a different kind.
 */
export async function assertPoolFits(tx: Tx, model: { id?: string; pool: string | null; type: string; backend: string; options: unknown }): Promise<void> {
  if (!model.pool) return
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`model-pool:${model.pool}`}))`
  const others = await tx.aiModel.findMany({
    where: { pool: model.pool, ...(model.id ? { id: { not: model.id } } : {}) },
    select: { name: true, type: true, backend: true, options: true },
  })
  const otherKind = others.find((o) => o.type !== model.type || o.backend !== model.backend)
  if (otherKind)
    throw badRequest(`资源池「${model.pool}」里的模型「${otherKind.name}」是 ${otherKind.backend}（${otherKind.type}），同一资源池的模型需使用相同的后端和类型`)
  // A Midjourney task asking for a speed was checked against one member and may run on any.
  const speeds = speedsListed(model.options)
  const otherSpeeds = model.type === 'MID_JOURNEY' ? others.find((o) => speedsListed(o.options) !== speeds) : undefined
  if (otherSpeeds)
    throw badRequest(`资源池「${model.pool}」里的模型「${otherSpeeds.name}」提供的速度模式不同，同一资源池的 Midjourney 模型需提供相同的速度模式`)
}

/** The speeds a Midjourney model's options list (`options.speeds`), in one spelling to compare. */
function speedsListed(options: unknown): string {
  const speeds = (options as { speeds?: unknown } | null)?.speeds
  return Array.isArray(speeds) ? [...new Set(speeds.map(String))].sort().join(',') : ''
}
