/** Reads an advanced-settings textarea: empty means {}, anything else must be a JSON object. */
export function parseJsonObject(text: string): { value: Record<string, unknown>; error: null } | { value: null; error: string } {
  if (!text.trim()) return { value: {}, error: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { value: null, error: `JSON 格式错误：${error instanceof Error ? error.message : '无法解析'}` }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { value: null, error: '需要一个 JSON 对象，例如 {"key": "value"}' }
  return { value: parsed as Record<string, unknown>, error: null }
}

/** An object as the textarea shows it: pretty-printed, or empty for {}. */
export function formatJsonObject(value: unknown): string {
  return value && typeof value === 'object' && Object.keys(value).length ? JSON.stringify(value, null, 2) : ''
}

/** An optional integer typed into a number box: '' → null, otherwise the integer or NaN. */
export function parseIntegerInput(text: string): number | null {
  const trimmed = text.trim()
  if (!trimmed) return null
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
}
