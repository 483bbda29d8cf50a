import { sniffImageType } from '@/lib/uploads/image-upload'
import { baseUrl, numberOption, okJson, parseJson, send, statusError, type HttpReply } from './http'
import { TaskPoller } from './mj-poller'
import { parseSubmitResult, parseTask, type MjTask, type SubmitResult } from './mj-task'
import { BackendError, type BackendConfig } from './types'

/** Ids per list-by-condition call. */
const LIST_BATCH = 50

const pollers = new Map<string, TaskPoller>()
/** Proxies without list-by-condition (answered 404), and when: polled task by task, asked again after a while (an upgrade). */
const withoutList = new Map<string, number>()
const RECHECK_LIST_MS = 10 * 60_000

/** Where a proxy is and how to sign in to it (the secret is the `mj-api-secret` header). */
export type MjAddress = { base: string; headers: Record<string, string> }
/** A proxy as the adapter uses it: its address and the one poller its waiting tasks share. */
export type MjConnection = MjAddress & { key: string; poller: TaskPoller }

export function mjAddress(config: BackendConfig): MjAddress {
  return { base: baseUrl(config.endpoint).replace(/\/mj$/, ''), headers: config.secret ? { 'mj-api-secret': config.secret } : {} }
}

/** Options: `pollIntervalMs` (default 3000). One poller per proxy, secret and interval. */
export function connectMjProxy(config: BackendConfig): MjConnection {
  const address = mjAddress(config)
  const pollIntervalMs = numberOption(config.options, 'pollIntervalMs', 3000)
  const key = `${address.base}\n${config.secret ?? ''}\n${pollIntervalMs}`
  const poller = pollers.get(key) ?? new TaskPoller((ids) => listTasks({ ...address, key }, ids), pollIntervalMs)
  pollers.set(key, poller)
  return { ...address, key, poller }
}

/** A submit call; null when the proxy has no such endpoint (a 404 that is not a submit result). */
export async function postIfExists(mj: MjAddress, path: string, json: unknown, signal?: AbortSignal): Promise<SubmitResult | null> {
  const reply = await send(`${mj.base}${path}`, { json, headers: mj.headers, signal, timeoutMs: 60_000, createsBilledJob: true })
  // trueai answers "parent not found" with HTTP 404 and a code-3 body.
  if (reply.status === 404) return parseSubmitResult(tryJson(reply))
  if (reply.status < 200 || reply.status >= 300) throw statusError(reply)
  // A 2xx may mean the job went to Discord: an answer we cannot read fails the task rather than submitting it again.
  const answer = parseSubmitResult(parseJson(reply, false))
  if (!answer) throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 的应答不是提交结果（${path}）`, false)
  return answer
}

/** A submit every build has: a 404 without a submit result speaks of the backend (wrong address, broken relay), not of the job. */
export async function post(mj: MjAddress, path: string, json: unknown, signal?: AbortSignal): Promise<SubmitResult> {
  const answer = await postIfExists(mj, path, json, signal)
  if (!answer) throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 没有 ${path} 接口（HTTP 404），请检查接口地址`, true)
  return answer
}

/** The tasks the proxy knows among `ids`: by list-by-condition, or task by task where that is missing. */
async function listTasks(mj: MjAddress & { key: string }, ids: string[]): Promise<MjTask[]> {
  if (Date.now() - (withoutList.get(mj.key) ?? -Infinity) > RECHECK_LIST_MS) {
    const found = await listByCondition(mj, ids)
    if (found) return (withoutList.delete(mj.key), found)
    withoutList.set(mj.key, Date.now())
  }
  return (await Promise.all(ids.map((id) => fetchTask(mj, id)))).filter((t): t is MjTask => t !== null)
}

/** Null when the proxy has no list-by-condition. */
async function listByCondition(mj: MjAddress, ids: string[]): Promise<MjTask[] | null> {
  const found: MjTask[] = []
  for (let i = 0; i < ids.length; i += LIST_BATCH) {
    const reply = await send(`${mj.base}/mj/task/list-by-condition`, { json: { ids: ids.slice(i, i + LIST_BATCH) }, headers: mj.headers, timeoutMs: 15_000 })
    if (reply.status === 404) return null
    const answer = okJson(reply)
    if (!Array.isArray(answer)) throw new BackendError('BAD_RESPONSE', 'Midjourney Proxy 的 list-by-condition 没有返回数组', true)
    found.push(...answer.map(parseTask).filter((t): t is MjTask => t !== null))
  }
  return found
}

export async function fetchTask(mj: MjAddress, id: string, signal?: AbortSignal): Promise<MjTask | null> {
  const reply = await send(`${mj.base}/mj/task/${encodeURIComponent(id)}/fetch`, { headers: mj.headers, signal, timeoutMs: 15_000 })
  if (reply.status === 404 || reply.bytes.length === 0) return null
  return parseTask(okJson(reply))
}

export function dataUrl(png: Buffer): string {
  const type = sniffImageType(png) ?? 'png'
  return `data:image/${type};base64,${png.toString('base64')}`
}

function tryJson(reply: HttpReply): unknown {
  try {
    return parseJson(reply)
  } catch {
    return null
  }
}
