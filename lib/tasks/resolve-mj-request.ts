import 'server-only'
import { db } from '@/lib/db'
import { badRequest, notFound } from '@/lib/http/app-error'
import { submissionPriceKey } from '@/lib/mj/actions'
import { composeParams, speedsIn, splitPrompt, type MjSpeed } from '@/lib/mj/compose-prompt'
import { offeredSpeeds } from '@/lib/mj/mj-models'
import { ZMjImg2ImgSchema, ZMjText2ImgSchema } from '@/lib/mj/params'
import { translateForMj, wouldTranslate } from '@/lib/mj/translate'
import { assertNoBannedWords } from './banned-words'
import type { ResolvedRequest } from './resolved-request'

/**
 * A new Midjourney submission (imagine, blend or describe): validated, the options composed
 * into the prompt, Chinese translated when the site says so. All before anything is
 * charged, so a refusal or a failed translation costs nothing.
 */
export async function resolveMjRequest(
  userId: string,
  type: 'MJ_TEXT2IMG' | 'MJ_IMG2IMG',
  rawParams: unknown,
  modelId: string | null,
): Promise<ResolvedRequest> {
  const input = type === 'MJ_TEXT2IMG' ? ZMjText2ImgSchema.parse(rawParams) : ZMjImg2ImgSchema.parse(rawParams)
  const common = {
    type,
    baseType: type,
    modelId,
    customModel: null,
    parentId: null,
    priceKey: submissionPriceKey(input.mjAction),
    action: input.mjAction.toLowerCase(),
  }
  const references = 'referenceImageIds' in input ? { referenceImageUrls: await uploadUrls(userId, input.referenceImageIds) } : {}
  if (input.mjAction !== 'IMAGINE') return { ...common, params: { ...input, ...references, prompt: '', count: 1 } }

  const typed = splitPrompt(input.prompt)
  if (!typed.description) throw badRequest('请在参数前写上画面描述')
  const params = [typed.params, input.rawParams].filter(Boolean).join(' ')
  // A speed typed into the prompt or the parameters is a choice of speed like the form's.
  const mjSpeed = await assertSpeedsOffered([input.speed, ...speedsIn(params)], modelId)
  // Before a (paid) translation: the word list may be in Chinese; after it, in English.
  await assertNoBannedWords(input.prompt, input.rawParams)
  const base = { ...input, ...references, count: 1 }
  const compose = (description: string, extra: string) => [description, composeParams(input, extra)].filter(Boolean).join(' ')
  const untranslated = { ...base, finalPrompt: compose(typed.description, params) }
  const speedAsked = mjSpeed ? { mjSpeed } : {}
  if (!(await wouldTranslate(typed.description, params))) return { ...common, ...speedAsked, params: untranslated }
  return {
    ...common,
    ...speedAsked,
    params: untranslated,
    translate: async () => {
      const translated = await translateForMj(typed.description, params)
      if (!translated) return untranslated
      const finalPrompt = compose(translated.description, translated.params)
      await assertNoBannedWords(finalPrompt)
      return { ...base, promptEn: translated.description, finalPrompt }
    },
  }
}

/** The pictures' addresses, in order, so the task can show what it was given (a describe has no image of its own). */
async function uploadUrls(userId: string, ids: string[]): Promise<string[]> {
  const rows = await db().uploadedImage.findMany({ where: { id: { in: ids }, userId }, select: { id: true, url: true } })
  const urls = ids.map((id) => rows.find((r) => r.id === id)?.url)
  if (urls.some((url) => !url)) throw notFound('上传的图片不存在或已过期，请重新上传')
  return urls as string[]
}

/**
 * Every speed asked for (none is the model's default) must be one the model offers, and only
 * one may be asked for. Without a chosen model, one enabled Midjourney model must offer it
 * here (before a paid translation), and the task is routed only to a model that does.
 */
export async function assertSpeedsOffered(asked: (MjSpeed | null | undefined)[], modelId: string | null): Promise<MjSpeed | null> {
  const speeds = new Set(asked.filter((speed): speed is MjSpeed => Boolean(speed)))
  if (speeds.size === 0) return null
  if (speeds.size > 1) throw badRequest('一次只能选择一种速度模式')
  const speed = [...speeds][0]!
  const models = await db().aiModel.findMany({
    where: { enabled: true, type: 'MID_JOURNEY', ...(modelId ? { id: modelId } : {}) },
    select: { options: true },
  })
  if (!models.some((model) => offeredSpeeds(model.options).includes(speed))) throw badRequest(SPEED_NOT_OFFERED)
  return speed
}

export const SPEED_NOT_OFFERED = '所选模型不支持该速度模式'
