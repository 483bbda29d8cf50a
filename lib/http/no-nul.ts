import { badRequest } from './app-error'

// PostgreSQL text cannot hold U+0000 (nor a JSON column a lone surrogate): they are refused as
// bad input where a request is read, not met later as a 500 from the write.
const HAS_NUL = '请求中含有无效字符（U+0000）'

/** Nor half of a surrogate pair (`\ud800` alone, half an emoji): PostgreSQL refuses it in a JSON column. */
const LONE_SURROGATE = '请求中含有无效字符（不完整的 Unicode 字符）'

/** Whether a JSON text may hold what unstorable() refuses: only its escapes can (JSON refuses U+0000 raw, UTF-8 cannot carry a lone surrogate). */
export const mayHoldUnstorable = (text: string) => /\\u(0000|[dD][89a-fA-F])/.test(text)

/** A JSON.parse reviver that refuses U+0000 or a lone surrogate in a key or a string value. */
export function unstorable(key: string, value: unknown): unknown {
  for (const text of [key, value]) {
    if (typeof text !== 'string') continue
    if (text.includes('\u0000')) throw badRequest(HAS_NUL)
    if (!text.isWellFormed()) throw badRequest(LONE_SURROGATE)
  }
  return value
}

/** The values as given, or a 400 when a string among them holds U+0000 (params, a query, multipart fields). */
export function withoutNul<T extends Record<string, unknown>>(values: T): T {
  for (const value of Object.values(values)) if ([value].flat().some((v) => typeof v === 'string' && v.includes('\u0000'))) throw badRequest(HAS_NUL)
  return values
}
