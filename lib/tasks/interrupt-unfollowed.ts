import 'server-only'
import { db } from '@/lib/db'
import { createAdapter } from '@/lib/generation/backends/registry'
import { backendConfig } from '@/lib/models/backend-config'
import type { Ended } from './finish-task'

/**
 * A task ended (cancelled, or past its deadline) while no worker followed the job its backend
 * had accepted: its worker died (its lease ran out) and no other had taken it up yet. Its worker would have
 * stopped the job; nobody else will, and a provider that bills per job would make and bill it.
 * So the job is stopped here, best effort (a failure is logged: the task has ended either way).
 */
export async function interruptUnfollowed(ended: Ended): Promise<void> {
  if (!ended.upstreamId || ended.followed) return
  try {
    const { model } = await db().task.findUniqueOrThrow({ where: { id: ended.id }, select: { model: true } })
    await createAdapter(model.backend, backendConfig(model)).interrupt?.(ended.upstreamId, { taskId: ended.id })
  } catch (error) {
    console.warn(`[tasks] could not stop the backend job ${ended.upstreamId} of the ended task ${ended.id}:`, error)
  }
}
