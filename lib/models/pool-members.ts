import 'server-only'
import type { Tx } from '@/lib/db'
import { badRequest } from '@/lib/http/app-error'

/**
 * Instances of one pool are interchangeable: a task queued for the pool runs on whichever is
 * free, charged at the price the user saw. So every member must be the same kind of backend
 * running the same type of model; a demo renderer or an SD WebUI among Midjourney proxies
 * would get real, paid tasks. Checked under a lock per pool name, so two saves at once
 * cannot each join a pool with a different kind.
 */
export async function assertPoolFits(tx: Tx, model: { id?: string; pool: string | null; type: string; backend: string }): Promise<void> {
  if (!model.pool) return
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`model-pool:${model.pool}`}))`
  const other = await tx.aiModel.findFirst({
    where: { pool: model.pool, ...(model.id ? { id: { not: model.id } } : {}), NOT: { AND: [{ type: model.type as never }, { backend: model.backend }] } },
    select: { name: true, type: true, backend: true },
  })
  if (other) throw badRequest(`资源池「${model.pool}」里的模型「${other.name}」是 ${other.backend}（${other.type}），同一资源池的模型需使用相同的后端和类型`)
}
