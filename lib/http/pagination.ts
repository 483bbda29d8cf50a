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
