import { updateSchemaOf, z } from '@/lib/zod'

/** Shared shapes of the video material API (docs/PRODUCT.md §18). */
export const VIDEO_KINDS = ['free', 'paid'] as const
export type VideoKindParam = (typeof VIDEO_KINDS)[number]

/** GET /api/videos?kind=&cursor=&keyword=&tag= */
export const ZVideoListQuery = z.object({
  kind: z.enum(VIDEO_KINDS, { error: '类型只能是 free 或 paid' }).optional(),
  cursor: z.string().trim().max(64).optional(),
  keyword: z.string().trim().max(50).optional(),
  tag: z.string().trim().max(30).optional(),
  pageSize: z.coerce.number().int().min(1).max(60).default(24),
})
export type TVideoListQuery = z.infer<typeof ZVideoListQuery>

const boolText = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])

/** The fields of POST /api/admin/videos (multipart) and PATCH /api/admin/videos/{id} (JSON). */
const tagsText = z.string().max(300, '标签太长')
/** 标签 as typed (comma-separated, either comma): up to 20, each once. */
const tagList = (text: string) =>
  [
    ...new Set(
      text
        .split(/[,，]/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ].slice(0, 20)

export const ZVideoFields = z.object({
  title: z.string().trim().min(1, '请填写标题').max(100, '标题最多 100 个字符'),
  description: z.string().trim().max(2000, '描述最多 2000 个字符').default(''),
  tags: tagsText.default('').transform(tagList),
  price: z.coerce.number({ error: '价格须为整数（分）' }).int('价格须为整数（分）').min(0, '价格不能为负').max(100_000_000, '价格过高').default(0),
  kind: z.enum(VIDEO_KINDS, { error: '类型只能是 free 或 paid' }),
  published: boolText.default(false),
})
export type TVideoFields = z.infer<typeof ZVideoFields>

/**
 * Only what it names: the 上架 switch sends `published` alone and must not reset the price,
 * description or tags. Unknown fields are dropped, as this call always did.
 */
export const ZVideoPatch = updateSchemaOf(ZVideoFields.extend({ tags: tagsText.transform(tagList) })).strip()
export type TVideoPatch = z.infer<typeof ZVideoPatch>

/** POST /api/admin/videos/uploads: start a chunked upload of `size` bytes. */
export const ZUploadInit = z.object({
  size: z.number().int('大小须为整数').positive('文件为空'),
  /** The file's name: with S3 its extension names the stored object (the bytes are checked afterwards). */
  name: z.string().trim().max(200).optional(),
})

export type VideoListItem = {
  id: string
  title: string
  kind: VideoKindParam
  price: number
  durationSec: number
  width: number
  height: number
  posterUrl: string
  previewUrl?: string
  tags: string[]
  bought?: boolean
}

export type VideoDetail = VideoListItem & {
  description: string
  size: number
  createdAt: string
  /** A signed, expiring link to the original (free items for signed-in users, paid items once bought). */
  playUrl?: string
  /** The same kind of signed link, saved as a file (what GET /api/videos/{id}/download redirects to). */
  downloadUrl?: string
}

export type AdminVideo = VideoDetail & { published: boolean; purchases: number; revenue: number }
