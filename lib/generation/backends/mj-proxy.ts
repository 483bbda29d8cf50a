import { safeFetchBytes } from '@/lib/net/safe-fetch'
import { sniffImageType } from '@/lib/uploads/image-upload'
import { baseUrl, isRecord, numberOption, okJson, parseJson, send, statusError, testOutcome, type HttpReply } from './http'
import { TaskPoller } from './mj-poller'
import { describedPrompts, parseSubmitResult, parseTask, readTaskId, type MjTask, type SubmitResult } from './mj-task'
import { BackendError, type BackendAdapter, type BackendConfig, type BackendImage, type GenerationJob, type MjJob, type ResultButton, type RunContext } from './types'

/** Ids per list-by-condition call. */
const LIST_BATCH = 50
/** Polls that may fail in a row (proxy restarting, network blip) before the wait gives up. */
const MAX_POLL_FAILURES = 10
/** Polls in a row that may not find the job before it counts as lost (the proxy's memory store forgets on restart). */
const MAX_MISSES = 3

const pollers = new Map<string, TaskPoller>()
/** Proxies without list-by-condition (answered 404), and when: polled task by task, asked again after a while (an upgrade). */
const withoutList = new Map<string, number>()
const RECHECK_LIST_MS = 10 * 60_000
/** An id no proxy has (ids are millisecond timestamps or snowflakes): test() fetches it when list-by-condition is missing. */
const HEALTH_PROBE_ID = '1000000000000000'

/**
 * The midjourney-proxy (docs/PROTOCOLS.md §1: novicezk, plus, trueai and relays). Submits
 * imagine, blend, describe or a button (customId; modal ones through /submit/modal), then
 * waits by polling list-by-condition in batches; the proxy's notify hook only nudges a
 * poll. Secret = the `mj-api-secret` header. Options: `pollIntervalMs` (default 3000).
 */
export function createMjProxyAdapter(config: BackendConfig): BackendAdapter {
  const base = baseUrl(config.endpoint).replace(/\/mj$/, '')
  const headers: Record<string, string> = config.secret ? { 'mj-api-secret': config.secret } : {}
  const pollIntervalMs = numberOption(config.options, 'pollIntervalMs', 3000)
  const key = `${base}\n${config.secret ?? ''}\n${pollIntervalMs}`
  const poller = pollers.get(key) ?? new TaskPoller((ids) => listTasks(ids), pollIntervalMs)
  pollers.set(key, poller)

  /** A submit call; null when the proxy has no such endpoint (a 404 that is not a submit result). */
  async function postIfExists(path: string, json: unknown, signal?: AbortSignal): Promise<SubmitResult | null> {
    const reply = await send(`${base}${path}`, { json, headers, signal, timeoutMs: 60_000 })
    // trueai answers "parent not found" with HTTP 404 and a code-3 body.
    if (reply.status === 404) return parseSubmitResult(tryJson(reply))
    const answer = parseSubmitResult(okJson(reply))
    if (!answer) throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 的应答不是提交结果（${path}）`, true)
    return answer
  }

  /** A submit every build has: a 404 without a submit result speaks of the backend (wrong address, broken relay), not of the job. */
  async function post(path: string, json: unknown, signal?: AbortSignal): Promise<SubmitResult> {
    const answer = await postIfExists(path, json, signal)
    if (!answer) throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 没有 ${path} 接口（HTTP 404），请检查接口地址`, true)
    return answer
  }

  async function listTasks(ids: string[]): Promise<MjTask[]> {
    if (Date.now() - (withoutList.get(key) ?? -Infinity) > RECHECK_LIST_MS) {
      const found = await listByCondition(ids)
      if (found) return withoutList.delete(key), found
      withoutList.set(key, Date.now())
    }
    return (await Promise.all(ids.map((id) => fetchTask(id)))).filter((t): t is MjTask => t !== null)
  }

  /** Null when the proxy has no list-by-condition. */
  async function listByCondition(ids: string[]): Promise<MjTask[] | null> {
    const found: MjTask[] = []
    for (let i = 0; i < ids.length; i += LIST_BATCH) {
      const reply = await send(`${base}/mj/task/list-by-condition`, { json: { ids: ids.slice(i, i + LIST_BATCH) }, headers, timeoutMs: 15_000 })
      if (reply.status === 404) return null
      const answer = okJson(reply)
      if (!Array.isArray(answer)) throw new BackendError('BAD_RESPONSE', 'Midjourney Proxy 的 list-by-condition 没有返回数组', true)
      found.push(...answer.map(parseTask).filter((t): t is MjTask => t !== null))
    }
    return found
  }

  const fetchTask = (id: string, signal?: AbortSignal) => fetchTaskAt(base, headers, id, signal)

  /** Images come from the proxy's own host (trusted as configured) or a public CDN (checked against SSRF). */
  async function download(url: string, signal: AbortSignal, attempts = 3): Promise<Buffer> {
    const absolute = new URL(url, `${base}/`).toString()
    for (let attempt = 1; ; attempt++) {
      try {
        const { bytes } = await safeFetchBytes(absolute, { trustedHosts: [new URL(base).host], timeoutMs: 60_000, signal })
        if (!sniffImageType(bytes)) throw new Error('不是图片')
        return bytes
      } catch (error) {
        if (signal.aborted) throw new BackendError('ABORTED', '任务已取消', false)
        if (attempt >= attempts) throw new BackendError('BAD_RESPONSE', `下载 Midjourney 图片失败（${(error as Error).message}）：${absolute}`, false, { imageUrl: absolute })
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt))
      }
    }
  }

  async function submitAction(mj: MjJob, common: Record<string, unknown>, signal: AbortSignal): Promise<{ answer: SubmitResult; upstreamId: string }> {
    const answer = (await postIfExists('/mj/submit/action', { taskId: mj.parentUpstreamId, customId: mj.customId, ...common }, signal)) ?? (await legacyChange(mj, common, signal))
    const upstreamId = acceptedId(answer)
    // 21 is either "already exists" (a repeated U) or "waiting for window confirm": the status tells.
    if (answer.code !== 21) return { answer, upstreamId }
    const status = typeof answer.properties.status === 'string' ? answer.properties.status : (await fetchTask(upstreamId, signal))?.status
    if (status !== 'MODAL') return { answer, upstreamId }
    const modal = await post('/mj/submit/modal', { taskId: upstreamId, prompt: mj.prompt || undefined, maskBase64: mj.mask ? dataUrl(mj.mask) : undefined }, signal)
    // Builds differ on whether the confirmed job keeps the MODAL task's id; an answer without one keeps it.
    const isAccepted = [1, 21, 22].includes(modal.code)
    return { answer: modal, upstreamId: isAccepted && !modal.result ? upstreamId : acceptedId(modal) }
  }

  /** The open novicezk builds have no /submit/action: U, V and reroll go through /submit/change. */
  async function legacyChange(mj: MjJob, common: Record<string, unknown>, signal: AbortSignal): Promise<SubmitResult> {
    const match = /^MJ::JOB::(upsample|variation|reroll)::(\d)::/.exec(mj.customId ?? '')
    if (!match) throw new BackendError('REJECTED', 'Midjourney Proxy 没有 /mj/submit/action 接口，只能放大、变体和重新生成', false, null, 'Midjourney 服务不支持该操作，积分已退还')
    const action = { upsample: 'UPSCALE', variation: 'VARIATION', reroll: 'REROLL' }[match[1]]
    return post('/mj/submit/change', { taskId: mj.parentUpstreamId, action, ...(action === 'REROLL' ? {} : { index: Number(match[2]) }), ...common }, signal)
  }

  return {
    kind: 'mj-proxy',

    async submit(job, ctx) {
      const mj = job.mj
      if (!mj) throw new BackendError('REJECTED', 'Midjourney Proxy 只能运行 Midjourney 任务', false)
      const common = { ...(mj.notifyHook ? { notifyHook: mj.notifyHook } : {}), state: job.taskId }
      let answer: SubmitResult
      let upstreamId: string
      if (mj.action === 'ACTION') {
        ;({ answer, upstreamId } = await submitAction(mj, common, ctx.signal))
      } else {
        answer = await post(...submitRequest(mj, common), ctx.signal)
        upstreamId = acceptedId(answer)
      }
      return { kind: 'accepted', upstreamId, log: { upstreamId, code: answer.code, description: answer.description, properties: answer.properties } }
    },

    async wait(upstreamId, job, ctx) {
      const stopNudges = ctx.onNudge?.(() => poller.nudge(upstreamId))
      try {
        return await follow(upstreamId, job, ctx)
      } finally {
        stopNudges?.()
        poller.forget(upstreamId)
      }
    },

    async interrupt(upstreamId) {
      // trueai's cancel; other builds have none and let the job run out.
      if (upstreamId) await send(`${base}/mj/task/${encodeURIComponent(upstreamId)}/cancel`, { method: 'POST', json: {}, headers, timeoutMs: 10_000 }).catch(() => undefined)
    },

    test: () =>
      testOutcome(async () => {
        const listing = await send(`${base}/mj/task/list-by-condition`, { json: { ids: [] }, headers, timeoutMs: 10_000 })
        // Builds without list-by-condition are polled task by task: their fetch must answer instead.
        const polling = listing.status === 404 ? await checkFetch() : checkListing(listing)
        const accounts = await send(`${base}/mj/account/list`, { headers, timeoutMs: 10_000 }).then((r) => (r.status === 200 ? parseJson(r) : null), () => null)
        const count = Array.isArray(accounts) ? `，${accounts.length} 个账号` : ''
        return { message: `连接正常：Midjourney Proxy${count}${polling === 'fetch' ? '（没有 list-by-condition，逐个查询任务）' : ''}` }
      }),
  }

  function checkListing(reply: HttpReply): 'list' {
    if (!Array.isArray(okJson(reply))) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（list-by-condition 没有返回数组）', false)
    return 'list'
  }

  /** The fetch of an id no proxy has: empty, null or a task object; a 404 or anything else means there is nothing to poll. */
  async function checkFetch(): Promise<'fetch'> {
    const reply = await send(`${base}/mj/task/${HEALTH_PROBE_ID}/fetch`, { headers, timeoutMs: 10_000 })
    if (reply.status === 404) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（list-by-condition 和 task/fetch 都不存在）', false)
    const answer = reply.bytes.length === 0 ? null : okJson(reply)
    if (answer !== null && !isRecord(answer)) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（task/fetch 没有返回任务）', false)
    return 'fetch'
  }

  async function follow(upstreamId: string, job: GenerationJob, ctx: RunContext) {
    let misses = 0
    let failures = 0
    let preview: string | null = null
    for (;;) {
      let task: MjTask | null
      try {
        task = await poller.next(upstreamId, ctx.signal)
        failures = 0
      } catch (error) {
        if (error instanceof BackendError && error.retryable && ++failures < MAX_POLL_FAILURES) continue
        throw error
      }
      if (!task) {
        if (++misses >= MAX_MISSES) throw new BackendError('UPSTREAM_FAILED', 'Midjourney Proxy 已不知道这个任务（可能重启过），任务丢失', false, { code: 'BACKEND_LOST' })
        continue
      }
      misses = 0
      if (task.status === 'SUCCESS') return finished(task, job, ctx)
      if (task.status === 'FAILURE' || task.status === 'CANCEL') {
        const reason = task.failReason ?? '未说明原因'
        throw new BackendError('UPSTREAM_FAILED', `Midjourney 任务失败：${reason}`, false, { failReason: reason }, `生成失败：${reason.slice(0, 200)}，积分已退还`)
      }
      if (task.status === 'IN_PROGRESS') {
        ctx.onProgress(task.progress)
        if (task.imageUrl && task.imageUrl !== preview && ctx.onPreview) {
          preview = task.imageUrl
          const report = ctx.onPreview.bind(ctx)
          void download(task.imageUrl, ctx.signal, 1).then(report, () => undefined)
        }
      }
    }
  }

  async function finished(task: MjTask, job: GenerationJob, ctx: RunContext) {
    // A describe makes text: its imageUrl is only the picture it was given, not a result.
    const isDescribe = job.mj?.action === 'DESCRIBE' || Boolean(job.mj?.customId?.startsWith('MJ::Picread::'))
    if (!isDescribe && !task.imageUrl) throw new BackendError('BAD_RESPONSE', 'Midjourney 任务成功了，但没有图片地址', false)
    const images: BackendImage[] = isDescribe ? [] : [{ bytes: await download(task.imageUrl!, ctx.signal), seed: null }]
    ctx.onProgress(100)
    return {
      kind: 'completed' as const,
      images,
      buttons: task.buttons.length > 0 ? task.buttons : legacyButtons(task),
      ...(isDescribe ? { prompts: describedPrompts(task) } : {}),
      log: { upstreamId: task.id, imageUrl: task.imageUrl, finalPrompt: task.properties.finalPrompt ?? null, promptEn: task.promptEn },
    }
  }
}

/**
 * The open novicezk builds return no buttons: a grid they made still takes U1-U4, 🔄 and
 * V1-V4 (through /submit/change), written in the legacy customId patterns.
 */
function legacyButtons(task: MjTask): ResultButton[] {
  if (!['IMAGINE', 'VARIATION', 'REROLL', 'BLEND'].includes(task.action ?? '')) return []
  const hash = typeof task.properties.messageHash === 'string' ? task.properties.messageHash : task.id
  const button = (customId: string, label: string, emoji = '') => ({ customId, label, emoji, style: 2 })
  return [
    ...[1, 2, 3, 4].map((i) => button(`MJ::JOB::upsample::${i}::${hash}`, `U${i}`)),
    button(`MJ::JOB::reroll::0::${hash}::SOLO`, '', '🔄'),
    ...[1, 2, 3, 4].map((i) => button(`MJ::JOB::variation::${i}::${hash}`, `V${i}`)),
  ]
}

/** The endpoint and body of a new imagine, blend or describe. */
function submitRequest(mj: MjJob, common: Record<string, unknown>): [string, unknown] {
  // The niji option composes `--niji N` into the prompt: that job is for the Niji bot.
  const botType = mj.action === 'IMAGINE' && /(^|\s)--niji(\s|$)/.test(mj.prompt) ? 'NIJI_JOURNEY' : 'MID_JOURNEY'
  if (mj.action === 'BLEND') {
    if (mj.images.length < 2) throw new BackendError('REJECTED', '混图需要 2-5 张图片', false)
    return ['/mj/submit/blend', { base64Array: mj.images.map(dataUrl), dimensions: mj.dimensions ?? 'SQUARE', botType, ...common }]
  }
  if (mj.action === 'DESCRIBE') {
    if (!mj.images[0]) throw new BackendError('REJECTED', '识图需要一张图片', false)
    return ['/mj/submit/describe', { base64: dataUrl(mj.images[0]), botType, ...common }]
  }
  return ['/mj/submit/imagine', { prompt: mj.prompt, base64Array: mj.images.map(dataUrl), botType, ...common }]
}

/**
 * The task id of an accepted submit. Only 1, 21 and 22 are acceptance; 23 (queue full) is
 * worth a later retry; 24 (banned word) and every other code (9 included) fail the task
 * with a refund, without blaming the instance.
 */
function acceptedId(answer: SubmitResult): string {
  const { code, description, properties } = answer
  if (code === 1 || code === 21 || code === 22) {
    const id = readTaskId(Array.isArray(answer.result) ? answer.result[0] : answer.result)
    if (id) return id
    // Accepted but without an id: it may run, yet could never be followed; not retried, refunded.
    throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 接受了任务却没有返回任务 id（code ${code}）`, false, { submit: answer })
  }
  if (code === 23) throw new BackendError('BUSY', `Midjourney Proxy 队列已满：${description}`, true, { submit: answer })
  if (code === 24) {
    const word = typeof properties.bannedWord === 'string' ? properties.bannedWord : ''
    const shown = word ? `「${word}」` : ''
    throw new BackendError('REJECTED', `Midjourney 拒绝了提示词：${description}${shown}`, false, { submit: answer }, `提示词包含 Midjourney 禁止的词${shown}，积分已退还，请修改后重试`)
  }
  if (code === 9) throw new BackendError('UPSTREAM_FAILED', `Midjourney Proxy 系统错误：${description}`, false, { submit: answer }, `Midjourney 服务出错：${description || '系统错误'}，积分已退还`)
  const why = code === 3 ? '关联的任务不存在或已过期' : description || `code ${code}`
  throw new BackendError('REJECTED', `Midjourney Proxy 拒绝了任务（code ${code}）：${description}`, false, { submit: answer }, `Midjourney 拒绝了任务：${why}，积分已退还`)
}

function dataUrl(png: Buffer): string {
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

async function fetchTaskAt(base: string, headers: Record<string, string>, id: string, signal?: AbortSignal): Promise<MjTask | null> {
  const reply = await send(`${base}/mj/task/${encodeURIComponent(id)}/fetch`, { headers, signal, timeoutMs: 15_000 })
  if (reply.status === 404 || reply.bytes.length === 0) return null
  return parseTask(okJson(reply))
}

/** The proxy's view of one task (the notify hook verifies a callback with it). */
export function fetchMjTask(config: BackendConfig, id: string): Promise<MjTask | null> {
  return fetchTaskAt(baseUrl(config.endpoint).replace(/\/mj$/, ''), config.secret ? { 'mj-api-secret': config.secret } : {}, id)
}
