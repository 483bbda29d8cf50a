// What a VIDEO model offers (shared: the console form, the creation page and the submit
// check read it alike). Kept in the model's options JSON beside the provider's model name.

import { VIDEO_RATIOS } from '@/lib/generation/clip-ratios'

export { VIDEO_RATIOS }
export const VIDEO_RESOLUTIONS = ['480p', '720p', '1080p'] as const

export type VideoOptions = {
  /** Clip lengths offered, in seconds. */
  durations: number[]
  ratios: string[]
  resolutions: string[]
  /** Whether the model takes a last frame besides the first. */
  lastFrame: boolean
  /** How long a task may wait and run in all before it fails with a refund. */
  deadlineMinutes: number
}

export const DEFAULT_VIDEO_OPTIONS: VideoOptions = {
  durations: [5],
  ratios: ['16:9', '9:16', '1:1'],
  resolutions: ['720p'],
  lastFrame: false,
  deadlineMinutes: 30,
}

const numbers = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v) && v >= 1 && v <= 60) : [])
const strings = (value: unknown, allowed: readonly string[]) => (Array.isArray(value) ? value.filter((v): v is string => allowed.includes(v)) : [])

/** A model's video options with the defaults for what it does not say (or says wrongly). */
export function videoOptionsOf(options: unknown): VideoOptions {
  const o = (options && typeof options === 'object' && !Array.isArray(options) ? options : {}) as Record<string, unknown>
  const durations = numbers(o.durations)
  const ratios = strings(o.ratios, VIDEO_RATIOS)
  const resolutions = strings(o.resolutions, VIDEO_RESOLUTIONS)
  const deadline = typeof o.deadlineMinutes === 'number' && o.deadlineMinutes >= 5 && o.deadlineMinutes <= 180 ? Math.round(o.deadlineMinutes) : null
  return {
    durations: durations.length ? durations : DEFAULT_VIDEO_OPTIONS.durations,
    ratios: ratios.length ? ratios : DEFAULT_VIDEO_OPTIONS.ratios,
    resolutions: resolutions.length ? resolutions : DEFAULT_VIDEO_OPTIONS.resolutions,
    lastFrame: o.lastFrame === true,
    deadlineMinutes: deadline ?? DEFAULT_VIDEO_OPTIONS.deadlineMinutes,
  }
}

/** Points a clip costs: the per-clip price of its type plus the per-second price times its length; null when the model does not offer the type. */
export function videoPrice(prices: unknown, type: 'VIDEO_TEXT2VIDEO' | 'VIDEO_IMG2VIDEO', durationSec: number): number | null {
  const table = (prices && typeof prices === 'object' ? prices : {}) as Record<string, unknown>
  const perClip = table[type]
  if (!(typeof perClip === 'number' && Number.isInteger(perClip) && perClip >= 0)) return null
  const perSecond = typeof table.VIDEO_PER_SECOND === 'number' && Number.isInteger(table.VIDEO_PER_SECOND) ? table.VIDEO_PER_SECOND : 0
  return perClip + perSecond * durationSec
}

/** Why this model cannot make this clip (a length, ratio, resolution or last frame it does not offer), or null. */
export function videoRequestProblem(
  options: VideoOptions,
  request: { durationSec: number; ratio: string; resolution: string; hasLastFrame: boolean; hasFirstFrame: boolean },
): string | null {
  if (!options.durations.includes(request.durationSec)) return `该模型可选的时长为 ${options.durations.join('、')} 秒`
  if (!request.hasFirstFrame && !options.ratios.includes(request.ratio)) return `该模型可选的画面比例为 ${options.ratios.join('、')}`
  if (!options.resolutions.includes(request.resolution)) return `该模型可选的分辨率为 ${options.resolutions.join('、')}`
  if (request.hasLastFrame && !options.lastFrame) return '该模型不支持指定尾帧'
  if (request.hasLastFrame && !request.hasFirstFrame) return '指定尾帧时请同时指定首帧'
  return null
}
