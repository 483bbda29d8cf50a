import 'server-only'
import { db } from '@/lib/db'
import { fetchMjTask } from '@/lib/generation/backends/mj-proxy'
import { FINISHED_STATUSES } from '@/lib/generation/backends/mj-task'
import { badRequest, notFound } from '@/lib/http/app-error'
import { backendConfig } from '@/lib/models/backend-config'
import { signalNow } from '@/lib/signals/job-signal'
import { NUDGE_SIGNAL_PREFIX, nudgeTask } from '@/lib/signals/task-nudges'
import { isMjNotifySecret } from './notify-secret'

/**
 * The proxy's notifyHook callback (docs/PROTOCOLS.md §1.8: unsigned, unordered, at most once,
 * sometimes never). Taken as a hint only: the secret in the path names the model, the
 * body only names a task id, the proxy itself is asked what that task is, and when that
 * shows news the worker waiting for it is nudged to poll now. Nothing is written here, so
 * a duplicated, late or forged callback changes nothing.
 */
export async function handleMjNotify(secret: string, body: unknown): Promise<{ isAccepted: boolean }> {
  const models = await db().aiModel.findMany({
    where: { backend: 'mj-proxy' },
    select: { id: true, backend: true, endpoint: true, secretEnc: true, checkpoint: true, options: true },
  })
  const model = models.find((m) => isMjNotifySecret(m.id, secret))
  if (!model) throw notFound('回调地址无效')
  const upstreamId = callbackTaskId((body as { id?: unknown } | null)?.id)

  const task = await db().task.findFirst({ where: { modelId: model.id, upstreamId, status: 'PENDING' }, select: { id: true, progress: true } })
  if (!task) return { isAccepted: false }
  const upstream = await fetchMjTask(backendConfig(model), upstreamId).catch(() => null)
  const isNews = upstream !== null && (FINISHED_STATUSES.includes(upstream.status) || upstream.progress > task.progress)
  if (!isNews) return { isAccepted: false }
  await signalNow(`${NUDGE_SIGNAL_PREFIX}${task.id}`)
  // This process's own worker (tests, or the embedded default) hears it directly as well.
  nudgeTask(task.id)
  return { isAccepted: true }
}

/** The task id of a callback: a string, or a number JSON.parse kept exact (a longer one was rounded and names another task). */
function callbackTaskId(id: unknown): string {
  if (typeof id === 'string' && id) return id
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id)
  if (typeof id === 'number') throw badRequest('回调内容的任务 id 是超出精度的数字，请让代理以字符串发送任务 id')
  throw badRequest('回调内容缺少任务 id')
}
