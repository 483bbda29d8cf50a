import { z } from '@/lib/zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page'

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from './page'

export const ZPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
})
export type TPageQuery = z.infer<typeof ZPageQuerySchema>

/** Prisma skip/take for a page. */
export function pageArgs({ page, pageSize }: TPageQuery) {
  return { skip: (page - 1) * pageSize, take: pageSize }
}

/**
 * For a list shown newest first (descending): the same page read from the nearer end of
 * the index. A deep page near the end becomes a short ascending read instead of a long
 * OFFSET. Null when the page lies past the end.
 */
export function nearerEndWindow({ skip, take }: { skip: number; take: number }, total: number): { order: 'asc' | 'desc'; skip: number; take: number } | null {
  if (skip >= total) return null
  const size = Math.min(take, total - skip)
  if (skip <= total / 2) return { order: 'desc', skip, take: size }
  return { order: 'asc', skip: total - skip - size, take: size }
}
