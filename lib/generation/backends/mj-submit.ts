import { dataUrl, fetchTask, post, postIfExists, type MjAddress } from './mj-connection'
import { readTaskId, type SubmitResult } from './mj-task'
import { BackendError, type GenerationJob, type MjJob, type RunContext, type SubmitOutcome } from './types'

/**
 * Submits imagine, blend, describe or a button (customId; modal ones through
 * /submit/modal); the answer's code decides acceptance (acceptedId).
 */
export async function submitMjJob(proxy: MjAddress, job: GenerationJob, ctx: RunContext): Promise<SubmitOutcome> {
  const mj = job.mj
  if (!mj) throw new BackendError('REJECTED', 'Midjourney Proxy 只能运行 Midjourney 任务', false)
  const common = { ...(mj.notifyHook ? { notifyHook: mj.notifyHook } : {}), state: job.taskId }
  let answer: SubmitResult
  let upstreamId: string
  if (mj.action === 'ACTION') {
    ;({ answer, upstreamId } = await submitAction(proxy, mj, common, ctx.signal))
  } else {
    answer = await post(proxy, ...submitRequest(mj, common), ctx.signal)
    upstreamId = acceptedId(answer)
  }
  return { kind: 'accepted', upstreamId, log: { upstreamId, code: answer.code, description: answer.description, properties: answer.properties } }
}

async function submitAction(
  proxy: MjAddress,
  mj: MjJob,
  common: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ answer: SubmitResult; upstreamId: string }> {
  const answer =
    (await postIfExists(proxy, '/mj/submit/action', { taskId: mj.parentUpstreamId, customId: mj.customId, ...common }, signal)) ??
    (await legacyChange(proxy, mj, common, signal))
  const upstreamId = acceptedId(answer)
  // 21 is either "already exists" (a repeated U) or "waiting for window confirm": the status tells.
  if (answer.code !== 21) return { answer, upstreamId }
  const status = typeof answer.properties.status === 'string' ? answer.properties.status : (await fetchTask(proxy, upstreamId, signal))?.status
  if (status !== 'MODAL') return { answer, upstreamId }
  const modal = await post(
    proxy,
    '/mj/submit/modal',
    { taskId: upstreamId, prompt: mj.prompt || undefined, maskBase64: mj.mask ? dataUrl(mj.mask) : undefined },
    signal,
  )
  // Builds differ on whether the confirmed job keeps the MODAL task's id; an answer without one keeps it.
  const isAccepted = [1, 21, 22].includes(modal.code)
  return { answer: modal, upstreamId: isAccepted && !modal.result ? upstreamId : acceptedId(modal) }
}

/** The open novicezk builds have no /submit/action: U, V and reroll go through /submit/change. */
async function legacyChange(proxy: MjAddress, mj: MjJob, common: Record<string, unknown>, signal: AbortSignal): Promise<SubmitResult> {
  const match = /^MJ::JOB::(upsample|variation|reroll)::(\d)::/.exec(mj.customId ?? '')
  if (!match)
    throw new BackendError(
      'REJECTED',
      'Midjourney Proxy 没有 /mj/submit/action 接口，只能放大、变体和重新生成',
      false,
      null,
      'Midjourney 服务不支持该操作，积分已退还',
    )
  const action = ({ upsample: 'UPSCALE', variation: 'VARIATION', reroll: 'REROLL' } as const)[match[1] as 'upsample' | 'variation' | 'reroll']
  return post(
    proxy,
    '/mj/submit/change',
    { taskId: mj.parentUpstreamId, action, ...(action === 'REROLL' ? {} : { index: Number(match[2]) }), ...common },
    signal,
  )
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
    throw new BackendError(
      'REJECTED',
      `Midjourney 拒绝了提示词：${description}${shown}`,
      false,
      { submit: answer },
      `提示词包含 Midjourney 禁止的词${shown}，积分已退还，请修改后重试`,
    )
  }
  if (code === 9)
    throw new BackendError(
      'UPSTREAM_FAILED',
      `Midjourney Proxy 系统错误：${description}`,
      false,
      { submit: answer },
      `Midjourney 服务出错：${description || '系统错误'}，积分已退还`,
    )
  const why = code === 3 ? '关联的任务不存在或已过期' : description || `code ${code}`
  throw new BackendError(
    'REJECTED',
    `Midjourney Proxy 拒绝了任务（code ${code}）：${description}`,
    false,
    { submit: answer },
    `Midjourney 拒绝了任务：${why}，积分已退还`,
  )
}
