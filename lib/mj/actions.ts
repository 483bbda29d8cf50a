import type { MJ_PRICE_KEYS } from '@/lib/models/rules'

// What a Midjourney button (customId, docs/PROTOCOLS.md §1.6) does, what it costs, and how it
// reads. customIds are copied from the parent task, never made up; this only classifies.
//
// Price keys (AiModel.prices):
//   MJ_TEXT2IMG / MJ_IMG2IMG imagine          → MJ_IMAGINE
//   blend / describe                          → MJ_BLEND / MJ_DESCRIBE
//   MJ::JOB::upsample::N, upsample_v*_…       → MJ_UPSCALE
//   MJ::JOB::variation::N, high/low_variation → MJ_VARIATION
//   MJ::JOB::reroll::0                        → MJ_REROLL
//   MJ::Outpaint::50|75                       → MJ_ZOOM
//   MJ::JOB::pan_left|right|up|down           → MJ_PAN
//   MJ::Inpaint (vary region), MJ::CustomZoom → MJ_MODAL (the modal confirm is the billed step)
//   MJ::Job::PicReader::N (imagine from a describe suggestion) → MJ_IMAGINE
//   MJ::Picread::Retry                        → MJ_DESCRIBE
// Anything else (animate, bookmarks ...) is not offered.

export type MjPriceKey = (typeof MJ_PRICE_KEYS)[number]

/** How a price reads next to the buttons. */
export const MJ_PRICE_LABELS: Record<MjPriceKey, string> = {
  MJ_IMAGINE: '生成',
  MJ_UPSCALE: '放大',
  MJ_VARIATION: '变化',
  MJ_REROLL: '重新生成',
  MJ_ZOOM: '缩小',
  MJ_PAN: '平移',
  MJ_MODAL: '局部重绘/自定义缩放',
  MJ_BLEND: '混图',
  MJ_DESCRIBE: '识图',
}

export type MjActionKind = 'UPSCALE' | 'VARIATION' | 'REROLL' | 'ZOOM' | 'PAN' | 'VARY_REGION' | 'CUSTOM_ZOOM' | 'PROMPT_IMAGINE' | 'REDESCRIBE'

export type MjAction = {
  kind: MjActionKind
  priceKey: MjPriceKey
  /** Goes through the proxy's MODAL step: needs a prompt (custom zoom) or a mask (vary region). */
  isModal: boolean
  /** Short Chinese name, for history and buttons without a label. */
  label: string
}

const PAN_LABELS: Record<string, string> = { left: '向左平移', right: '向右平移', up: '向上平移', down: '向下平移' }

const RULES: Array<[RegExp, (m: RegExpMatchArray) => MjAction]> = [
  [/^MJ::JOB::upsample::([1-4])::/, (m) => ({ kind: 'UPSCALE', priceKey: 'MJ_UPSCALE', isModal: false, label: `放大 U${m[1]}` })],
  [
    /^MJ::JOB::upsample_v[\d.]+_(\dx)_(subtle|creative)?/,
    (m) => ({
      kind: 'UPSCALE',
      priceKey: 'MJ_UPSCALE',
      isModal: false,
      label: `高清放大 ${m[1]}${m[2] === 'creative' ? '（创意）' : m[2] === 'subtle' ? '（细微）' : ''}`,
    }),
  ],
  [/^MJ::JOB::variation::([1-4])::/, (m) => ({ kind: 'VARIATION', priceKey: 'MJ_VARIATION', isModal: false, label: `变体 V${m[1]}` })],
  [/^MJ::JOB::(high|low)_variation::/, (m) => ({ kind: 'VARIATION', priceKey: 'MJ_VARIATION', isModal: false, label: m[1] === 'high' ? '强变化' : '弱变化' })],
  [/^MJ::JOB::reroll::/, () => ({ kind: 'REROLL', priceKey: 'MJ_REROLL', isModal: false, label: '重新生成' })],
  [/^MJ::Outpaint::(50|75)::/, (m) => ({ kind: 'ZOOM', priceKey: 'MJ_ZOOM', isModal: false, label: m[1] === '50' ? '缩小 2x' : '缩小 1.5x' })],
  [/^MJ::JOB::pan_(left|right|up|down)::/, (m) => ({ kind: 'PAN', priceKey: 'MJ_PAN', isModal: false, label: PAN_LABELS[m[1]!] ?? '平移' })],
  [/^MJ::Inpaint::/, () => ({ kind: 'VARY_REGION', priceKey: 'MJ_MODAL', isModal: true, label: '局部重绘' })],
  [/^MJ::CustomZoom::/, () => ({ kind: 'CUSTOM_ZOOM', priceKey: 'MJ_MODAL', isModal: true, label: '自定义缩放' })],
  [/^MJ::Job::PicReader::([1-4])$/, (m) => ({ kind: 'PROMPT_IMAGINE', priceKey: 'MJ_IMAGINE', isModal: false, label: `按第 ${m[1]} 条生成` })],
  [/^MJ::Picread::Retry$/, () => ({ kind: 'REDESCRIBE', priceKey: 'MJ_DESCRIBE', isModal: false, label: '重新识图' })],
]

/** What pressing this button does, or null when we do not offer it. */
export function classifyCustomId(customId: string): MjAction | null {
  for (const [pattern, describe] of RULES) {
    const match = customId.match(pattern)
    if (match) return describe(match)
  }
  return null
}

export function priceKeyOf(customId: string): MjPriceKey | null {
  return classifyCustomId(customId)?.priceKey ?? null
}

/** The task type of a button's result: text-to-image for new imagines, image-to-image for edits of a picture. */
export function childTaskType(action: MjAction, parentType: 'MJ_TEXT2IMG' | 'MJ_IMG2IMG'): 'MJ_TEXT2IMG' | 'MJ_IMG2IMG' {
  if (action.kind === 'REROLL') return parentType
  if (action.kind === 'PROMPT_IMAGINE') return 'MJ_TEXT2IMG'
  return 'MJ_IMG2IMG'
}

/** Price key of a new submission (not a button). */
export function submissionPriceKey(mjAction: 'IMAGINE' | 'BLEND' | 'DESCRIBE'): MjPriceKey {
  return mjAction === 'BLEND' ? 'MJ_BLEND' : mjAction === 'DESCRIBE' ? 'MJ_DESCRIBE' : 'MJ_IMAGINE'
}
