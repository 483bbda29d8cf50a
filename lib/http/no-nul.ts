import { badRequest } from './app-error'

// PostgreSQL text cannot hold U+0000: it is refused as bad input where a request is read,
// not met later as a 500 from the write.
const HAS_NUL = '请求中含有无效字符（U+0000）'

/** A JSON.parse reviver that refuses U+0000 in a key or a string value. */
export function refuseNul(key: string, value: unknown): unknown {
  if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw badRequest(HAS_NUL)
  return value
}

/** The values as given, or a 400 when a string among them holds U+0000 (params, a query, multipart fields). */
export function withoutNul<T extends Record<string, unknown>>(values: T): T {
  for (const value of Object.values(values)) if ([value].flat().some((v) => typeof v === 'string' && v.includes('\u0000'))) throw badRequest(HAS_NUL)
  return values
}
