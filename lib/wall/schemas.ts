import { z } from '@/lib/zod'
import { WALL_STATUSES, WALL_TYPES, type WallType } from './labels'

export type { WallType }

/** GET /api/wall: at most 60 a page (docs/PRODUCT.md §15). */
export const WALL_MAX_LIMIT = 60
export const WALL_DEFAULT_LIMIT = 30

export const ZWallQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1, 'limit 至少为 1').max(WALL_MAX_LIMIT, `limit 最多为 ${WALL_MAX_LIMIT}`).default(WALL_DEFAULT_LIMIT),
  sort: z.enum(['new', 'hot']).default('new'),
  type: z.enum(WALL_TYPES).optional(),
  /** Words of the prompt (explore's search). */
  q: z.string().trim().max(100, '搜索词最多 100 个字符').optional(),
  /** Only the admin's recommended works (the landing page's samples). */
  featured: z.enum(['1', 'true']).optional(),
  /** Only the works the caller keeps in 我的收藏 (signed in). */
  favorites: z.enum(['1', 'true']).optional(),
})
export type TWallQuery = z.infer<typeof ZWallQuerySchema>

export const ZPublishSchema = z.object({ index: z.number().int().min(0).max(15).default(0) }).strict()

export const ZAdminWallQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(WALL_STATUSES).optional(),
  featured: z.enum(['1', 'true']).optional(),
  /** Only works users reported, most reported first. */
  reported: z.enum(['1', 'true']).optional(),
})

export const ZWallSortSchema = z.object({ sort: z.number().int().min(-1_000_000).max(1_000_000) }).strict()

export const ZShowcaseSchema = z
  .object({
    title: z.string().trim().min(1, '请输入标题').max(60, '标题最多 60 个字符'),
    coverWorkId: z.string().min(1).max(64).nullable().default(null),
    workIds: z.array(z.string().min(1).max(64)).max(200, '一个合集最多 200 个作品').default([]),
    sort: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  })
  .strict()
export type TShowcaseInput = z.infer<typeof ZShowcaseSchema>

/** One work as the wall lists it (pinned by the issue; docs/PRODUCT.md §15). */
export type WallItem = {
  id: string
  taskId: string
  type: WallType
  thumbUrl: string
  imageUrl: string
  width: number
  height: number
  prompt: string
  model: string
  author: { name: string; avatar: string }
  likes: number
  featured: boolean
  liked?: boolean
  /** A clip (type VIDEO): its MP4 and length; thumbUrl and imageUrl are then its poster. */
  video?: { url: string; durationSec: number | null }
}

/** One work with the parameters it was made with (GET /api/wall/{id}). */
export type WallWorkDetail = WallItem & {
  /** The caller keeps it in 我的收藏 (signed in only). */
  favorited?: boolean
  negativePrompt: string
  seed: number | null
  steps: number | null
  cfgScale: number | null
  sampler: string | null
  createdAt: string | Date
  listedAt: string | Date | null
}

export type WallPage = { list: WallItem[]; nextCursor: string | null }
