import { z } from '@/lib/zod'
import { badRequest } from './app-error'

const ZKey = z.string().regex(/^[\x21-\x7e]{1,255}$/)

/** docs/PRODUCT.md §7.2: the Idempotency-Key header of a write, or undefined; a malformed one is a 400. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const value = req.headers.get('idempotency-key')
  if (value === null) return undefined
  if (!ZKey.safeParse(value).success) throw badRequest('Idempotency-Key 需为 1-255 个可见字符')
  return value
}
