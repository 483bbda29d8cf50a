import { createHash } from 'node:crypto'

/** What identifies a submission's inputs (a form's {type, modelId, params}, a button press): SHA-256 of them as JSON with sorted keys. */
export function requestHash(inputs: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
