import 'server-only'
import { env } from '@/lib/env'
import { FILES_URL_PREFIX } from '@/lib/storage/local-files'
import { publicUrl } from '@/lib/storage/s3-files'
import type { VideoKind } from '@/lib/generated/prisma/enums'
import type { VideoListItem } from './schemas'

export const VIDEO_ROW = {
  id: true,
  title: true,
  description: true,
  tags: true,
  kind: true,
  price: true,
  durationSec: true,
  width: true,
  height: true,
  size: true,
  fileKey: true,
  posterKey: true,
  previewKey: true,
  published: true,
  createdAt: true,
} as const

export type VideoRow = {
  id: string
  title: string
  description: string
  tags: string[]
  kind: VideoKind
  price: number
  durationSec: number
  width: number
  height: number
  size: bigint
  fileKey: string
  posterKey: string
  previewKey: string | null
  published: boolean
  createdAt: Date
}

/** The address of a public stored file (poster, preview). */
export const fileUrl = (key: string) => (env().S3_BUCKET ? publicUrl(key) : FILES_URL_PREFIX + key)

/** The columns a list item is made of. */
export type ListItemColumns = Pick<VideoRow, 'id' | 'title' | 'kind' | 'price' | 'durationSec' | 'width' | 'height' | 'posterKey' | 'previewKey' | 'tags'>

export function toListItem(v: ListItemColumns, bought?: boolean): VideoListItem {
  return {
    id: v.id,
    title: v.title,
    kind: v.kind === 'PAID' ? 'paid' : 'free',
    price: v.kind === 'PAID' ? v.price : 0,
    durationSec: v.durationSec,
    width: v.width,
    height: v.height,
    posterUrl: fileUrl(v.posterKey),
    ...(v.previewKey ? { previewUrl: fileUrl(v.previewKey) } : {}),
    tags: v.tags,
    ...(bought === undefined ? {} : { bought }),
  }
}
