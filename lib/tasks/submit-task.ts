import 'server-only'
import { db, type Tx } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { TaskType } from '@/lib/generated/prisma/enums'
import { isSupportedBackend } from '@/lib/generation/backends/registry'
import { wanSize } from '@/lib/generation/backends/wan-sizes'
import { AppError, badRequest, conflict, notFound, serviceUnavailable, tooManyRequests } from '@/lib/http/app-error'
import { postMovement } from '@/lib/ledger/post-movement'
import { announceQueueChange, wakeLocalRunner } from '@/lib/signals/queue-signal'
import { videoOptionsOf, videoPrice, videoRequestProblem } from '@/lib/models/video-options'
import { offeredSpeeds } from '@/lib/mj/mj-models'
import { getConfigValue } from '@/lib/site-config/store'
import { assertNoBannedWords } from './banned-words'
import { SPEED_NOT_OFFERED } from './resolve-mj-request'
import { resolveRequest } from './resolve-request'
import type { ResolvedRequest } from './resolved-request'
import { TASK_VIEW_SELECT, toTaskView, type TaskView } from './task-views'
import { requestHash } from '@/lib/http/request-hash'
import { activeMembership } from '@/lib/memberships/active-membership'
import { grantDailyAllowance } from '@/lib/memberships/daily-allowance'
import { memberPrice } from '@/lib/memberships/member-price'

/** How long a task may wait and run in all before it fails with a refund. */
export const TASK_DEADLINE_MS = 30 * 60_000

const IMAGE_INPUTS = ['initImageId', 'maskImageId', 'controlImageId'] as const

export type SubmitInput = { type: TaskType; modelId?: string; params: unknown }

/**
 * The enabled model that runs this kind of task, and its price per image. A model none of
 * whose instances is in routing (lone and out, or its whole pool out) is refused at once
 * with 503, before anything is charged; without a chosen model, the next one that can run is taken.
 */
async function chooseModel(
  resolved: ResolvedRequest,
): Promise<{ id: string; name: string; backend: string; pool: string | null; pricePerImage: number; deadlineMs: number }> {
  const candidates = await db().aiModel.findMany({
    where: { enabled: true, ...(resolved.modelId ? { id: resolved.modelId } : {}) },
    select: { id: true, name: true, backend: true, pool: true, prices: true, options: true, healthy: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
  const pools = [...new Set(candidates.map((m) => m.pool).filter((p): p is string => p !== null))]
  const poolsInRouting = new Set(
    pools.length
      ? (await db().aiModel.findMany({ where: { pool: { in: pools }, enabled: true, healthy: true }, select: { pool: true } })).map((m) => m.pool)
      : [],
  )
  let outOfRouting: string | null = null
  let optionProblem: string | null = null
  for (const model of candidates) {
    if (!isSupportedBackend(model.backend)) continue
    const price = priceOf(resolved, model.prices)
    if (!(typeof price === 'number' && Number.isInteger(price) && price >= 0)) continue
    const video = resolved.video ? videoOptionsOf(model.options) : null
    const problem =
      video && resolved.video
        ? (videoRequestProblem(video, resolved.video) ?? providerSizeProblem(model.backend, resolved.video))
        : resolved.mjSpeed && !offeredSpeeds(model.options).includes(resolved.mjSpeed)
          ? SPEED_NOT_OFFERED
          : null
    if (problem) {
      optionProblem ??= problem
      continue
    }
    const inRouting = model.pool && !resolved.isPinnedToModel ? poolsInRouting.has(model.pool) : model.healthy
    if (!inRouting) {
      outOfRouting ??= model.name
      continue
    }
    const deadlineMs = video ? video.deadlineMinutes * 60_000 : TASK_DEADLINE_MS
    return { id: model.id, name: model.name, backend: model.backend, pool: model.pool, pricePerImage: resolved.customModel?.price ?? price, deadlineMs }
  }
  if (outOfRouting) throw serviceUnavailable(`模型「${outOfRouting}」暂时不可用，请稍后再试（本次未扣积分）`)
  if (optionProblem) throw badRequest(optionProblem)
  if (resolved.modelId) throw badRequest('所选模型不可用或不支持该功能')
  throw badRequest('暂无可用的生成模型，请联系管理员')
}

/** Wan's text-to-video takes only sizes on its list (a clip from a first frame follows the frame): refused here, before anything is charged. */
function providerSizeProblem(backend: string, video: NonNullable<ResolvedRequest['video']>): string | null {
  if (backend !== 'dashscope-video' || video.hasFirstFrame || wanSize(video.ratio, video.resolution)) return null
  return `所选模型不支持 ${video.ratio} 比例的 ${video.resolution} 视频，请换一个比例或清晰度`
}

/** The model's price of one unit of this request (an image; a video clip by its length), or undefined when it does not offer it. */
function priceOf(resolved: ResolvedRequest, prices: unknown): unknown {
  if (resolved.video && (resolved.baseType === 'VIDEO_TEXT2VIDEO' || resolved.baseType === 'VIDEO_IMG2VIDEO'))
    return videoPrice(prices, resolved.baseType, resolved.video.durationSec) ?? undefined
  return (prices as Record<string, unknown>)[resolved.priceKey ?? resolved.baseType]
}

/**
 * Submits a task: checks the prompt and limits, then in ONE transaction takes the price
 * from the user's points (ledger reference task:<id>:charge) and queues the task, so
 * there is never a charge without a task or a task without its charge. A repeated
 * Idempotency-Key with the same inputs returns the first task instead of charging again;
 * with other inputs it is refused (409).
 */
export { requestHash }

export async function submitTask(userId: string, input: SubmitInput, idempotencyKey?: string): Promise<TaskView> {
  const hash = requestHash({ type: input.type, modelId: input.modelId ?? null, params: input.params ?? null })
  // Tasks from before request hashes were kept can only be told apart by their type.
  const isSameRequest = (earlier: EarlierTask) => (earlier.requestHash ? earlier.requestHash === hash : earlier.type === input.type)
  return queueTask(userId, idempotencyKey, isSameRequest, () => resolveRequest(userId, input.type, input.params, input.modelId ?? null), hash)
}

/** A submit is refused at the limit of pending tasks, and without the points it costs. */
function assertCanQueue(points: number | undefined, pending: number, cost: number, maxPending: number): asserts points is number {
  if (pending >= maxPending) throw tooManyRequests(`进行中的任务已达上限（${maxPending} 个），请等待完成后再提交`)
  if (points === undefined) throw notFound('用户不存在')
  if (points < cost) throw new AppError('INSUFFICIENT_POINTS', `积分不足：本次需要 ${cost} 积分，当前 ${points} 积分`)
}

export const IDEMPOTENCY_MISMATCH_MESSAGE = '这个 Idempotency-Key 已用于另一次内容不同的提交（任务类型、模型或参数不一致），请为新的提交使用新的 Key'

type EarlierTask = NonNullable<Awaited<ReturnType<typeof findByKey>>>

/**
 * The submission path every task takes (a form's submit, a Midjourney button): replay
 * by Idempotency-Key (`isSameRequest` tells a retry from a different request under the
 * same key; `hash` is kept with the task for that), resolve, check, then charge and queue
 * in one transaction.
 */
export async function queueTask(
  userId: string,
  idempotencyKey: string | undefined,
  isSameRequest: (earlier: EarlierTask) => boolean,
  resolve: () => Promise<ResolvedRequest>,
  hash?: string,
): Promise<TaskView> {
  const replay = (task: EarlierTask): TaskView => {
    if (!isSameRequest(task)) throw conflict(IDEMPOTENCY_MISMATCH_MESSAGE)
    const { requestHash: _hash, ...shown } = task
    return toTaskView(shown)
  }
  if (idempotencyKey) {
    const earlier = await findByKey(userId, idempotencyKey)
    if (earlier) return replay(earlier)
  }

  const resolved = await resolve()
  const params = resolved.params as { prompt: string; negativePrompt?: string; count: number }
  await assertNoBannedWords(params.prompt, params.negativePrompt ?? '')
  const references = Array.isArray(resolved.params.referenceImageIds) ? resolved.params.referenceImageIds : []
  const imageIds = [...IMAGE_INPUTS.map((k) => resolved.params[k]), ...references].filter((v): v is string => typeof v === 'string')
  if (imageIds.length && (await db().uploadedImage.count({ where: { id: { in: imageIds }, userId } })) !== new Set(imageIds).size) {
    throw notFound('上传的图片不存在或已过期，请重新上传')
  }
  const model = await chooseModel(resolved)
  await grantDailyAllowance(userId)
  const membership = await activeMembership(userId, 'IMAGE')
  const fullCost = model.pricePerImage * params.count
  const cost = memberPrice(fullCost, membership?.discountPercent ?? 0)
  const maxPending = await getConfigValue<number>('TASK_MAX_PENDING_PER_USER')
  if (resolved.translate) {
    // Paid work only for a task that could be charged now (the transaction checks again under
    // the lock); a repeat of a key whose first submit finished meanwhile is answered with its task.
    const earlier = idempotencyKey ? await findByKey(userId, idempotencyKey) : null
    if (earlier) return replay(earlier)
    const [user, pending] = await Promise.all([
      db().user.findUnique({ where: { id: userId }, select: { points: true } }),
      db().task.count({ where: { userId, status: 'PENDING' } }),
    ])
    assertCanQueue(user?.points, pending, cost, maxPending)
    resolved.params = await resolved.translate()
  }

  try {
    const outcome = await db().$transaction(async (tx) => {
      // The user row is the lock that makes the pending count exact under concurrent submits.
      const [user] = await tx.$queryRaw<{ points: number }[]>`SELECT "points" FROM "User" WHERE "id" = ${userId} FOR UPDATE`
      // A repeat of this key that waited here for the first submit sees its task now: it is
      // answered with it, not judged again against the points and pending tasks that task took.
      const earlier = idempotencyKey ? await findByKey(userId, idempotencyKey, tx) : null
      if (earlier) return { replayed: true as const, task: earlier }
      if (resolved.onceMessage && (await liveRepeat(tx, resolved.parentId, resolved.action))) throw conflict(resolved.onceMessage)
      assertCanQueue(user?.points, await tx.task.count({ where: { userId, status: 'PENDING' } }), cost, maxPending)
      const created = await tx.task.create({
        data: {
          userId,
          type: resolved.type,
          params: { ...resolved.params, baseType: resolved.baseType } as Prisma.InputJsonValue,
          modelId: model.id,
          poolKey: resolved.isPinnedToModel ? null : model.pool,
          customModelId: resolved.customModel?.id ?? null,
          parentId: resolved.parentId,
          action: resolved.action ?? null,
          priceSnapshot: {
            pricePerImage: model.pricePerImage,
            count: params.count,
            ...(cost !== fullCost ? { fullPrice: fullCost, discountPercent: membership?.discountPercent } : {}),
            backend: model.backend,
            model: model.name,
            ...(resolved.priceKey ? { priceKey: resolved.priceKey } : {}),
            ...(resolved.video ? { durationSec: resolved.video.durationSec } : {}),
            ...(resolved.customModel ? { preset: { checkpoint: resolved.customModel.checkpoint, lora: resolved.customModel.lora } } : {}),
          },
          chargedPoints: cost,
          deadlineAt: new Date(Date.now() + model.deadlineMs),
          idempotencyKey: idempotencyKey ?? null,
          requestHash: idempotencyKey && hash ? hash : null,
        },
        select: TASK_VIEW_SELECT,
      })
      if (cost > 0)
        await postMovement(tx, { userId, account: 'POINTS', kind: 'TASK_CHARGE', amount: -cost, reference: `task:${created.id}:charge`, note: model.name })
      await announceQueueChange(tx)
      return { replayed: false as const, task: created }
    })
    if (outcome.replayed) return replay(outcome.task)
    wakeLocalRunner()
    return toTaskView(outcome.task)
  } catch (error) {
    // Two requests with one key at the same moment: the loser returns the winner's task.
    if (idempotencyKey && (error as { code?: string }).code === 'P2002') {
      const winner = await findByKey(userId, idempotencyKey)
      if (winner) return replay(winner)
    }
    throw error
  }
}

/** A task of this parent and action that is pending or succeeded (resolved.onceMessage). */
export async function liveRepeat(client: Tx, parentId: string | null, action: string | undefined): Promise<boolean> {
  if (!parentId || !action) return false
  return !!(await client.task.findFirst({ where: { parentId, action, status: { in: ['PENDING', 'SUCCESS'] } }, select: { id: true } }))
}

async function findByKey(userId: string, idempotencyKey: string, client: Tx = db()) {
  return client.task.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } }, select: { ...TASK_VIEW_SELECT, requestHash: true } })
}
