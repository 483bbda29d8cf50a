import { isRecord } from './http'
import { BackendError, type ResultButton } from './types'

// The midjourney-proxy's task object and submit answer (docs/PROTOCOLS.md §1.3 to §1.5), read
// defensively: the open, plus and trueai builds and the relays differ in the details.

export type MjStatus = 'NOT_START' | 'SUBMITTED' | 'MODAL' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'CANCEL'

export type MjTask = {
  /** Always a string: ids are 16-19 digits, more than a JS number holds. */
  id: string
  /** IMAGINE, UPSCALE, VARIATION ... */
  action: string | null
  status: MjStatus | string
  /** 0-100. */
  progress: number
  /** A preview while IN_PROGRESS, the result on SUCCESS. */
  imageUrl: string | null
  failReason: string | null
  buttons: ResultButton[]
  properties: Record<string, unknown>
  prompt: string | null
  promptEn: string | null
}

export type SubmitResult = { code: number; description: string; result: unknown; properties: Record<string, unknown> }

export const FINISHED_STATUSES = ['SUCCESS', 'FAILURE', 'CANCEL']

/** "45%" → 45; '' or garbage → 0. */
export function parseProgress(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(String(value ?? '').replace('%', ''))
  return Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : 0
}

export function parseButtons(value: unknown): ResultButton[] {
  if (!Array.isArray(value)) return []
  return value
    .filter((b): b is Record<string, unknown> => isRecord(b) && typeof b.customId === 'string' && b.customId !== '')
    .map((b) => ({
      customId: String(b.customId),
      label: typeof b.label === 'string' ? b.label : '',
      emoji: typeof b.emoji === 'string' ? b.emoji : '',
      style: typeof b.style === 'number' ? b.style : 2,
    }))
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)

/**
 * A task id as the proxy sent it: a string, or a number only while JSON.parse kept it exact
 * (ids of 17-19 digits sent unquoted arrive already rounded, and would name another task).
 * Null when absent; a rounded number is a bad response.
 */
export function readTaskId(value: unknown): string | null {
  if (typeof value === 'string') return value || null
  if (typeof value !== 'number') return null
  if (!Number.isSafeInteger(value) || value < 0)
    throw new BackendError('BAD_RESPONSE', `Midjourney Proxy 返回的任务 id 是超出精度的数字（${value}），无法跟踪该任务`, false, { id: value })
  return String(value)
}

/** A task object, or null for anything without an id (a fetch of an unknown id answers null or nothing). */
export function parseTask(value: unknown): MjTask | null {
  const id = isRecord(value) ? readTaskId(value.id) : null
  if (!isRecord(value) || id === null) return null
  return {
    id,
    action: text(value.action),
    status: typeof value.status === 'string' ? value.status : 'NOT_START',
    progress: parseProgress(value.progress),
    imageUrl: text(value.imageUrl),
    failReason: text(value.failReason),
    buttons: parseButtons(value.buttons),
    properties: isRecord(value.properties) ? value.properties : {},
    prompt: text(value.prompt),
    promptEn: text(value.promptEn),
  }
}

export function parseSubmitResult(value: unknown): SubmitResult | null {
  if (!isRecord(value) || typeof value.code !== 'number') return null
  return {
    code: value.code,
    description: typeof value.description === 'string' ? value.description : '',
    result: value.result,
    properties: isRecord(value.properties) ? value.properties : {},
  }
}

/**
 * A describe's four suggestions: `properties.finalPrompt` (else promptEn/prompt) holds them
 * separated by blank lines, each led by 1️⃣ … 4️⃣.
 */
export function describedPrompts(task: MjTask): string[] {
  const source = text(task.properties.finalPrompt) ?? task.promptEn ?? task.prompt ?? ''
  return source
    .split(/\n\s*\n/)
    .map((part) => part.replace(/^\s*[1-9]\uFE0F?\u20E3\s*/u, '').trim())
    .filter(Boolean)
    .slice(0, 4)
}
