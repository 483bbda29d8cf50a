/**
 * Midjourney parameters: the options the /mj page offers, composed into the `--name value`
 * suffix Midjourney reads. Pure, shared by the page (to show the command) and the server
 * (which composes what is actually sent).
 */
export const MJ_ASPECT_RATIOS = ['1:1', '4:3', '3:4', '16:9', '9:16', '3:2', '2:3', '21:9'] as const
export const MJ_VERSIONS = ['7', '6.1', '6', '5.2'] as const
export const NIJI_VERSIONS = ['6', '5'] as const
export const MJ_QUALITIES = [0.25, 0.5, 1, 2, 4] as const
export const MJ_SPEEDS = ['fast', 'relax', 'turbo'] as const
export type MjSpeed = (typeof MJ_SPEEDS)[number]

export const MJ_SPEED_LABELS: Record<MjSpeed, string> = { fast: '快速', relax: '慢速', turbo: '极速' }

export type MjOptions = {
  aspectRatio?: string | null
  version?: string | null
  /** Niji (anime model) version; replaces `--v`. */
  niji?: string | null
  stylize?: number | null
  chaos?: number | null
  quality?: number | null
  speed?: MjSpeed | null
}

/** Midjourney's spellings of the parameters the options set, by our name. */
const ALIASES: Record<string, string> = {
  ar: 'ar',
  aspect: 'ar',
  v: 'version',
  version: 'version',
  niji: 'version',
  s: 'stylize',
  stylize: 'stylize',
  c: 'chaos',
  chaos: 'chaos',
  q: 'quality',
  quality: 'quality',
  fast: 'speed',
  relax: 'speed',
  turbo: 'speed',
}

/**
 * Dashes that stand for `--` before a parameter name: a Chinese input method turns `--` into
 * `——`, and phones into `—`; Midjourney reads an em dash as `--` too. Written as `--`, the
 * parameter is seen (and checked) here as Midjourney will see it.
 */
export function normalizeDashes(text: string): string {
  return text.replace(/(^|\s)(?:[—–―]{1,2}|－{2})(?=[a-z])/gi, '$1--')
}

/** "a cat --ar 16:9 --no dogs" → description "a cat", params "--ar 16:9 --no dogs". */
export function splitPrompt(text: string): { description: string; params: string } {
  const at = text.search(/(^|\s)--[a-z]/i)
  if (at < 0) return { description: text.trim(), params: '' }
  return { description: text.slice(0, at).trim(), params: text.slice(at).trim() }
}

/** The speed modes a parameter string asks for itself (--fast, --relax, --turbo). */
export function speedsIn(params: string): MjSpeed[] {
  return [...params.matchAll(/(?:^|\s)--(fast|relax|turbo)(?=\s|$)/gi)].map((match) => match[1]!.toLowerCase() as MjSpeed)
}

/** The option names a parameter string already sets (by our names: ar, version, stylize ...). */
function namesIn(params: string): Set<string> {
  const names = new Set<string>()
  for (const match of params.matchAll(/(?:^|\s)--([a-z]+)/gi)) {
    const name = ALIASES[match[1]!.toLowerCase()]
    if (name) names.add(name)
  }
  return names
}

/**
 * The parameter suffix: the options first, then the raw parameters as typed. A parameter
 * the raw text sets itself wins (Midjourney refuses a prompt that sets one twice).
 */
export function composeParams(options: MjOptions, raw = ''): string {
  const taken = namesIn(raw)
  const parts: string[] = []
  const add = (name: string, text: string | null) => {
    if (text && !taken.has(name)) parts.push(text)
  }
  add('ar', options.aspectRatio ? `--ar ${options.aspectRatio}` : null)
  add('version', options.niji ? `--niji ${options.niji}` : options.version ? `--v ${options.version}` : null)
  add('stylize', options.stylize != null ? `--s ${options.stylize}` : null)
  add('chaos', options.chaos != null ? `--c ${options.chaos}` : null)
  add('quality', options.quality != null ? `--q ${options.quality}` : null)
  add('speed', options.speed ? `--${options.speed}` : null)
  return [...parts, raw.trim()].filter(Boolean).join(' ')
}

/** The full prompt: description (parameters typed into it are kept as raw ones), options, raw parameters. */
export function composeMjPrompt(prompt: string, options: MjOptions, rawParams = ''): string {
  const { description, params } = splitPrompt(prompt)
  return [description, composeParams(options, [params, rawParams.trim()].filter(Boolean).join(' '))].filter(Boolean).join(' ')
}

/** True when the text has Chinese (or other CJK) characters, which Midjourney does not read. */
export function hasCjk(text: string): boolean {
  return /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/.test(text)
}
