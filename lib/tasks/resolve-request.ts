import 'server-only'
import { db } from '@/lib/db'
import type { TaskType } from '@/lib/generated/prisma/enums'
import { badRequest, notFound } from '@/lib/http/app-error'
import { parseTaskParams, PROMPT_MAX, type SdTaskType } from '@/lib/generation/sd-params'
import { resolveMjRequest } from './resolve-mj-request'
import type { ResolvedRequest } from './resolved-request'
import { resolveVideoRequest } from './resolve-video-request'
import { isVideoTaskType } from './video-params'

/**
 * Validates a submission and applies what it refers to: 小狸猫 merges a custom model's
 * defaults and trigger words; 做同款 copies a finished wall item's (or the user's own)
 * prompt and parameters.
 */
export async function resolveRequest(userId: string, type: TaskType, rawParams: unknown, modelId: string | null): Promise<ResolvedRequest> {
  if (type === 'MJ_TEXT2IMG' || type === 'MJ_IMG2IMG') return resolveMjRequest(userId, type, rawParams, modelId)
  if (isVideoTaskType(type)) return resolveVideoRequest(userId, type, rawParams, modelId)
  if (type === 'SD_XIAOLIMAO') {
    const input = parseTaskParams('SD_XIAOLIMAO', rawParams)
    const preset = await db().customModel.findFirst({ where: { id: input.customModelId, enabled: true } })
    if (!preset) throw notFound('该风格模型不存在或已停用')
    const defaults = (preset.defaultParams ?? {}) as Record<string, unknown>
    const { customModelId, prompt, ...rest } = input
    // Only what the user sent overrides the preset: the schema's own defaults must not.
    const sent = new Set(typeof rawParams === 'object' && rawParams !== null ? Object.keys(rawParams) : [])
    const words = preset.triggerWords.trim()
    const joined = [words, prompt?.trim() ?? ''].filter(Boolean).join(', ')
    if (joined.length > PROMPT_MAX)
      throw badRequest(`加上风格词后提示词超过 ${PROMPT_MAX} 个字符，请把补充描述缩短到 ${Math.max(0, PROMPT_MAX - words.length - 2)} 个字符以内`)
    const merged = parseTaskParams('SD_TEXT2IMG', {
      ...defaults,
      ...Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined && sent.has(k))),
      prompt: joined || preset.name,
    })
    // userPrompt keeps what the user typed, so a retry does not add the trigger words twice.
    return {
      type,
      baseType: 'SD_TEXT2IMG',
      params: { ...merged, customModelId, userPrompt: prompt ?? '' },
      modelId: preset.modelId,
      customModel: presetSold(preset),
      parentId: null,
    }
  }
  if (type === 'MAKE_SAME') {
    const input = parseTaskParams('MAKE_SAME', rawParams)
    const source = await db().task.findFirst({
      where: { id: input.sourceTaskId, status: 'SUCCESS', OR: [{ isRecommended: true }, { userId }, { wallWork: { status: 'APPROVED' } }] },
      select: { id: true, type: true, params: true, modelId: true, customModelId: true },
    })
    if (!source) throw notFound('原作品不存在或未公开')
    const sourceParams = source.params as Record<string, unknown>
    const baseType = (sourceParams.baseType as ResolvedRequest['baseType'] | undefined) ?? (source.type as ResolvedRequest['baseType'])
    if (baseType !== 'SD_TEXT2IMG') throw badRequest('该作品需要原图，暂不支持做同款')
    const params = parseTaskParams('SD_TEXT2IMG', pick(sourceParams, ['prompt', 'negativePrompt', 'width', 'height', 'steps', 'cfgScale', 'sampler', 'count']))
    if (input.seed !== undefined) params.seed = input.seed
    // A 小狸猫 work is made again with its style model (checkpoint, LoRA, model and price), while it is offered.
    const preset = source.customModelId ? await db().customModel.findFirst({ where: { id: source.customModelId, enabled: true } }) : null
    if (source.customModelId && !preset) throw notFound('该作品的风格模型已停用，暂不支持做同款')
    return {
      type,
      baseType,
      params: { ...params, sourceTaskId: source.id, ...(preset ? { customModelId: preset.id } : {}) },
      modelId: preset ? preset.modelId : (modelId ?? source.modelId),
      customModel: preset ? presetSold(preset) : null,
      parentId: source.id,
    }
  }
  const baseType = type as Exclude<SdTaskType, 'MAKE_SAME' | 'SD_XIAOLIMAO'>
  return { type, baseType, params: parseTaskParams(baseType, rawParams), modelId, customModel: null, parentId: null }
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]))
}

/** The preset as it is sold now: its price, and the checkpoint and LoRA the task will run with however the preset is edited later. */
const presetSold = (preset: { id: number; price: number; checkpoint: string | null; lora: string | null }) => ({
  id: preset.id,
  price: preset.price,
  checkpoint: preset.checkpoint,
  lora: preset.lora,
})
