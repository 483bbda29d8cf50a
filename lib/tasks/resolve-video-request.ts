import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import type { StoredImage } from '@/lib/generation/store-results'
import { FILES_URL_PREFIX } from '@/lib/storage/local-files'
import type { ResolvedRequest } from './resolved-request'
import { parseResultRef, VIDEO_PARAM_SCHEMAS, type VideoTaskType } from './video-params'

/**
 * A video submission: its parameters checked, and each input frame (an upload, or an
 * image of one of the user's finished tasks) turned into the storage key the worker reads
 * (`imageKey`, `lastImageKey`). Whether the model offers the length, ratio and resolution
 * is checked when the model is chosen (submit-task.ts).
 */
export async function resolveVideoRequest(userId: string, type: VideoTaskType, rawParams: unknown, modelId: string | null): Promise<ResolvedRequest> {
  const params: Record<string, unknown> = VIDEO_PARAM_SCHEMAS[type].parse(rawParams)
  if (typeof params.imageId === 'string') Object.assign(params, frameParams('image', await findFrame(userId, params.imageId, '首帧图片')))
  if (typeof params.lastImageId === 'string') Object.assign(params, frameParams('lastImage', await findFrame(userId, params.lastImageId, '尾帧图片')))
  return {
    type,
    baseType: type,
    params: { ...params, count: 1 },
    modelId,
    customModel: null,
    parentId: null,
    video: {
      durationSec: params.durationSec as number,
      ratio: params.ratio as string,
      resolution: params.resolution as string,
      hasFirstFrame: typeof params.imageKey === 'string',
      hasLastFrame: typeof params.lastImageKey === 'string',
    },
  }
}

type Frame = { key: string; url: string }

/** `imageKey` for the worker and `imageUrl` for the page (做同款 shows the frame again). */
const frameParams = (name: 'image' | 'lastImage', frame: Frame) => ({ [`${name}Key`]: frame.key, [`${name}Url`]: frame.url })

/** The user's own upload or result image: its storage key and a URL to show it; 404 when it is not theirs or gone. */
async function findFrame(userId: string, ref: string, what: string): Promise<Frame> {
  const result = parseResultRef(ref)
  if (!result) {
    const upload = await db().uploadedImage.findFirst({ where: { id: ref, userId }, select: { storageKey: true, url: true } })
    if (!upload) throw notFound(`${what}不存在或已过期，请重新上传`)
    return { key: upload.storageKey, url: upload.url }
  }
  const task = await db().task.findFirst({ where: { id: result.taskId, userId, status: 'SUCCESS' }, select: { results: true } })
  const image = task ? ((task.results ?? []) as StoredImage[])[result.index] : undefined
  const key = image ? storageKeyOf(image) : null
  if (!image || !key) throw notFound(`${what}不存在：请选择自己已完成作品中的图片`)
  return { key, url: image.thumbUrl || image.url }
}

/** Where a stored result lives: its download link names the key (/files/<key>?download=...), as does a local URL. */
function storageKeyOf(image: StoredImage): string | null {
  for (const link of [image.downloadUrl, image.url]) {
    if (link?.startsWith(FILES_URL_PREFIX)) return decodeURIComponent(link.slice(FILES_URL_PREFIX.length).split('?')[0] ?? '')
  }
  return null
}
