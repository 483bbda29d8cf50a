import 'server-only'
import { db } from '@/lib/db'
import type { GenerationJob, JobMode, MjJob, VideoJob } from '@/lib/generation/backends/types'
import { mjNotifyHook } from '@/lib/mj/notify-secret'
import type { ModelConnection } from '@/lib/models/backend-config'
import { readStoredFile } from '@/lib/storage/storage'

const MODE_BY_TYPE: Record<string, JobMode> = {
  SD_TEXT2IMG: 'txt2img',
  SD_IMG2IMG: 'img2img',
  SD_IMGINPAINT: 'inpaint',
  SD_IMGCONTROLNET: 'lineart',
  MJ_TEXT2IMG: 'txt2img',
  MJ_IMG2IMG: 'img2img',
}

/** ControlNet units for line-art colouring, unless the model's options say otherwise. */
const DEFAULT_LINEART = {
  standard: { module: 'lineart_standard', model: 'control_v11p_sd15_lineart' },
  anime: { module: 'lineart_anime', model: 'control_v11p_sd15s2_lineart_anime' },
} as const

export class MissingInputError extends Error {}

type TaskForRun = {
  id: string
  params: unknown
  model: ModelConnection & { id: string }
  customModel: { checkpoint: string | null; lora: string | null } | null
  priceSnapshot: unknown
}

type Preset = { checkpoint: string | null; lora: string | null }

/** The preset's checkpoint and LoRA as the task was sold (kept at submit); tasks from before that read the preset itself. */
function presetOf(task: TaskForRun): Preset | null {
  const kept = (task.priceSnapshot as { preset?: Preset } | null)?.preset
  return kept ?? task.customModel
}

async function loadImage(id: unknown): Promise<Buffer | null> {
  if (typeof id !== 'string') return null
  const upload = await db().uploadedImage.findUnique({ where: { id }, select: { storageKey: true } })
  const bytes = upload ? await readStoredFile(upload.storageKey) : null
  if (!bytes) throw new MissingInputError(`uploaded image ${id} is gone`)
  return bytes
}

/** The task as its backend sees it: parameters resolved, input images loaded. */
export async function buildJob(task: TaskForRun): Promise<GenerationJob> {
  const p = task.params as Record<string, unknown> & { baseType: string }
  const options = (task.model.options ?? {}) as { lineart?: Partial<Record<'standard' | 'anime', { module: string; model: string }>> }
  const style = p.lineStyle === 'anime' ? 'anime' : 'standard'
  const lineart = options.lineart?.[style] ?? DEFAULT_LINEART[style]
  const maskImage = await loadImage(p.maskImageId)
  const preset = presetOf(task)
  return {
    taskId: task.id,
    mode: MODE_BY_TYPE[p.baseType] ?? 'txt2img',
    prompt: String(p.prompt ?? ''),
    negativePrompt: String(p.negativePrompt ?? ''),
    width: Number(p.width ?? 0),
    height: Number(p.height ?? 0),
    steps: Number(p.steps ?? 0),
    cfgScale: Number(p.cfgScale ?? 0),
    seed: Number(p.seed ?? -1),
    sampler: typeof p.sampler === 'string' ? p.sampler : null,
    count: Number(p.count ?? 1),
    denoisingStrength: typeof p.denoisingStrength === 'number' ? p.denoisingStrength : null,
    checkpoint: preset?.checkpoint ?? null,
    // Each adapter applies the LoRA its own way (A1111 prompt syntax, ComfyUI LoraLoader) or refuses it.
    lora: preset?.lora ? { name: preset.lora, weight: 0.8 } : null,
    initImage: await loadImage(p.initImageId),
    maskImage,
    controlImage: await loadImage(p.controlImageId),
    controlnet: p.baseType === 'SD_IMGCONTROLNET' ? { ...lineart, weight: Number(p.controlWeight ?? 1) } : null,
    mj: p.baseType === 'MJ_TEXT2IMG' || p.baseType === 'MJ_IMG2IMG' ? await buildMjJob(p, task.model, maskImage) : null,
    video: p.baseType === 'VIDEO_TEXT2VIDEO' || p.baseType === 'VIDEO_IMG2VIDEO' ? await buildVideoJob(p) : null,
  }
}

async function buildVideoJob(p: Record<string, unknown>): Promise<VideoJob> {
  return {
    durationSec: Number(p.durationSec),
    ratio: String(p.ratio),
    resolution: String(p.resolution),
    firstFrame: await loadStored(p.imageKey),
    lastFrame: await loadStored(p.lastImageKey),
  }
}

/** An input frame by its storage key (an upload or a result of the user's, resolved at submit). */
async function loadStored(key: unknown): Promise<Buffer | null> {
  if (typeof key !== 'string') return null
  const bytes = await readStoredFile(key).catch(() => null)
  if (!bytes) throw new MissingInputError(`input frame ${key} is gone`)
  return bytes
}

async function buildMjJob(p: Record<string, unknown>, model: TaskForRun['model'], mask: Buffer | null): Promise<MjJob> {
  const references = Array.isArray(p.referenceImageIds) ? p.referenceImageIds : []
  const images: Buffer[] = []
  for (const id of references) images.push((await loadImage(id))!)
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
  return {
    action: p.mjAction as MjJob['action'],
    prompt: text(p.finalPrompt) ?? '',
    images,
    dimensions: (text(p.dimensions) as MjJob['dimensions']) ?? null,
    parentUpstreamId: text(p.parentUpstreamId),
    customId: text(p.customId),
    mask,
    notifyHook: mjNotifyHook(model.id, model.options),
  }
}
