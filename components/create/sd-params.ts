/** The shared SD parameters of the creation forms, with the defaults users start from. */
export type SdParams = {
  prompt: string
  negativePrompt: string
  width: number
  height: number
  steps: number
  cfgScale: number
  seed: number
  sampler: string | null
  count: number
}

export const DEFAULT_SD_PARAMS: SdParams = {
  prompt: '',
  negativePrompt: '',
  width: 512,
  height: 512,
  steps: 20,
  cfgScale: 7,
  seed: -1,
  sampler: null,
  count: 1,
}

export const SIZE_PRESETS = [
  { label: '1:1', width: 512, height: 512 },
  { label: '3:4', width: 512, height: 680 },
  { label: '4:3', width: 680, height: 512 },
  { label: '9:16', width: 432, height: 768 },
  { label: '16:9', width: 768, height: 432 },
  { label: '1:1 大图', width: 1024, height: 1024 },
] as const

export const SAMPLERS = ['Euler a', 'Euler', 'DPM++ 2M', 'DPM++ 2M Karras', 'DPM++ SDE Karras', 'DDIM', 'UniPC'] as const

/** A generation size with the picture's aspect: the long side `longSide`, both multiples of 8. */
export function fitSize(width: number, height: number, longSide = 768): { width: number; height: number } {
  const scale = longSide / Math.max(width, height)
  const round8 = (v: number) => Math.max(64, Math.min(2048, Math.round((v * scale) / 8) * 8))
  return { width: round8(width), height: round8(height) }
}
