import 'server-only'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { WallItem, WallType } from './schemas'

/** The columns a wall item is made of (a like of the caller's, when one is signed in). */
export function wallItemSelect(viewerId: string | null) {
  return {
    id: true,
    taskId: true,
    modelType: true,
    modelName: true,
    thumbUrl: true,
    imageUrl: true,
    videoUrl: true,
    durationSec: true,
    width: true,
    height: true,
    prompt: true,
    likes: true,
    featured: true,
    listedAt: true,
    user: { select: { name: true, avatar: true } },
    ...(viewerId ? { likedBy: { where: { userId: viewerId }, select: { userId: true } } } : {}),
  } satisfies Prisma.WallWorkSelect
}

type Row = Prisma.WallWorkGetPayload<{ select: ReturnType<typeof wallItemSelect> }> & { likedBy?: { userId: string }[] }

export function toWallItem(row: Row, viewerId: string | null): WallItem {
  return {
    id: row.id,
    taskId: row.taskId,
    // Pictures of MJ or SD models and clips are published (publish-work), so a work's model type is a wall type.
    type: row.modelType as WallType,
    thumbUrl: row.thumbUrl,
    imageUrl: row.imageUrl,
    width: row.width,
    height: row.height,
    prompt: row.prompt,
    model: row.modelName,
    author: { name: row.user.name, avatar: row.user.avatar },
    likes: row.likes,
    featured: row.featured,
    ...(viewerId ? { liked: (row.likedBy?.length ?? 0) > 0 } : {}),
    ...videoOf(row),
  }
}

/** The `video` field of a clip's wall item; nothing for a picture. */
export function videoOf(row: { videoUrl: string | null; durationSec: number | null }): Pick<WallItem, 'video'> {
  return row.videoUrl ? { video: { url: row.videoUrl, durationSec: row.durationSec } } : {}
}
