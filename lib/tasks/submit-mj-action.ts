import 'server-only'
import { db } from '@/lib/db'
import type { ResultButton } from '@/lib/generation/backends/types'
import { badRequest, conflict, notFound } from '@/lib/http/app-error'
import { childTaskType, classifyCustomId, type MjAction } from '@/lib/mj/actions'
import { speedsIn, splitPrompt, type MjSpeed } from '@/lib/mj/compose-prompt'
import { assertSpeedsOffered } from './resolve-mj-request'
import type { TMjActionInput } from '@/lib/mj/params'
import { translateForMj, wouldTranslate } from '@/lib/mj/translate'
import { assertNoBannedWords } from './banned-words'
import type { ResolvedRequest } from './resolved-request'
import { liveRepeat, queueTask, requestHash } from './submit-task'
import type { TaskView } from './task-views'

const UPSCALED_ALREADY = '这张图已经放大过了，请在作品中查看'

/**
 * Presses a button of a finished Midjourney task: a child task (parentId = the parent,
 * action = the customId), charged at the model's price for that action through the same
 * path as every submission (Idempotency-Key, limits, 积分不足, refunds).
 */
export function submitMjAction(userId: string, parentId: string, input: TMjActionInput, idempotencyKey?: string): Promise<TaskView> {
  const hash = requestHash({ parentId, ...input })
  return queueTask(
    userId,
    idempotencyKey,
    (earlier) => (earlier.requestHash ? earlier.requestHash === hash : earlier.parentId === parentId && earlier.action === input.customId),
    () => resolveMjAction(userId, parentId, input),
    hash,
  )
}

async function resolveMjAction(userId: string, parentId: string, input: TMjActionInput): Promise<ResolvedRequest> {
  // Another user's task is "not found", never "forbidden".
  const parent = await db().task.findFirst({
    where: { id: parentId, userId },
    select: { id: true, type: true, status: true, buttons: true, upstreamId: true, modelId: true, params: true },
  })
  if (!parent) throw notFound('任务不存在')
  if (parent.type !== 'MJ_TEXT2IMG' && parent.type !== 'MJ_IMG2IMG') throw badRequest('只有 Midjourney 任务可以使用这些按钮')
  if (parent.status !== 'SUCCESS' || !parent.upstreamId) throw conflict('任务完成后才能使用这些按钮')
  if (!(parent.buttons as ResultButton[]).some((b) => b.customId === input.customId)) throw badRequest('该任务没有这个按钮')
  const action = classifyCustomId(input.customId)
  if (!action) throw badRequest('暂不支持该操作')
  // The proxy answers a repeated upscale with the first one's job: a second charge for the same image.
  const onceMessage = action.kind === 'UPSCALE' ? UPSCALED_ALREADY : undefined
  if (onceMessage && (await liveRepeat(db(), parentId, input.customId))) throw conflict(onceMessage)

  const parentParams = parent.params as Record<string, unknown>
  const type = childTaskType(action, parent.type)
  const modal = await modalInput(action, input, parent.modelId)
  const params = {
    mjAction: 'ACTION',
    customId: input.customId,
    parentTaskId: parent.id,
    parentUpstreamId: parent.upstreamId,
    prompt: promptShown(action, input.customId, parentParams),
    ...(action.kind === 'REDESCRIBE' ? { referenceImageUrls: parentParams.referenceImageUrls } : {}),
    ...modal.params,
    count: 1,
  }
  const translate = modal.translate
  return {
    type,
    baseType: type,
    modelId: parent.modelId,
    customModel: null,
    parentId: parent.id,
    priceKey: action.priceKey,
    action: input.customId,
    onceMessage,
    isPinnedToModel: true,
    ...(modal.mjSpeed ? { mjSpeed: modal.mjSpeed } : {}),
    params,
    ...(translate ? { translate: async () => ({ ...params, ...(await translate()) }) } : {}),
  }
}

/** What the child shows as its prompt: the parent's, or the describe suggestion a PicReader button runs. */
function promptShown(action: MjAction, customId: string, parentParams: Record<string, unknown>): string {
  if (action.kind === 'PROMPT_IMAGINE') {
    const suggestions = Array.isArray(parentParams.describedPrompts) ? parentParams.describedPrompts : []
    return String(suggestions[Number(customId.split('::').at(-1)) - 1] ?? '')
  }
  return String(parentParams.prompt ?? '')
}

/**
 * Vary (Region) needs a mask and may take a prompt; Custom Zoom needs a prompt with --zoom; nothing else takes either.
 * The prompt's translation (`translate`) waits until the task could be charged.
 */
async function modalInput(
  action: MjAction,
  input: TMjActionInput,
  modelId: string | null,
): Promise<{ params: Record<string, unknown>; mjSpeed?: MjSpeed; translate?: () => Promise<Record<string, unknown>> }> {
  if (input.maskImageId && action.kind !== 'VARY_REGION') throw badRequest('只有局部重绘需要蒙版')
  if (input.prompt && !action.isModal) throw badRequest('该操作不需要提示词')
  if (action.kind === 'VARY_REGION' && !input.maskImageId) throw badRequest('请在图片上涂抹要重绘的区域')
  if (action.kind === 'CUSTOM_ZOOM') {
    const zoom = /(?:^|\s)--zoom\s+([\d.]+)/.exec(input.prompt ?? '')
    if (!zoom || !(Number(zoom[1]) >= 1 && Number(zoom[1]) <= 2)) throw badRequest('自定义缩放需要 --zoom 参数，取值 1-2，例如 --zoom 1.5')
  }
  const mask = input.maskImageId ? { maskImageId: input.maskImageId } : {}
  if (!input.prompt) return { params: mask }
  await assertNoBannedWords(input.prompt)
  const typed = splitPrompt(input.prompt)
  const mjSpeed = (await assertSpeedsOffered(speedsIn(typed.params), modelId)) ?? undefined
  const shown = { ...mask, modalPrompt: input.prompt }
  const untranslated = { ...shown, finalPrompt: [typed.description, typed.params].filter(Boolean).join(' ') }
  if (!(await wouldTranslate(typed.description, typed.params))) return { params: untranslated, mjSpeed }
  return {
    params: untranslated,
    mjSpeed,
    translate: async () => {
      const translated = await translateForMj(typed.description, typed.params)
      if (!translated) return untranslated
      const finalPrompt = [translated.description, translated.params].filter(Boolean).join(' ')
      await assertNoBannedWords(finalPrompt)
      return { ...shown, promptEn: translated.description, finalPrompt }
    },
  }
}
