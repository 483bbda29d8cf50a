import 'server-only'
import sharp from 'sharp'
import { takeAttempt } from '@/lib/auth/rate-limit'
import { db } from '@/lib/db'
import { newKey, putFile } from '@/lib/storage/storage'
import { reencodeImage } from './image-upload'

/** Inputs larger than this are scaled down: no backend takes more. */
export const MAX_UPLOAD_SIDE = 2048

/**
 * Per user, so one account cannot fill the disk (an upload is stored as a PNG of up to ~12MB).
 * Drawing takes a reference and perhaps a mask per task: a task a minute for ten minutes is
 * 20 uploads, a third of the limit, and 500 a day is four hours of that pace.
 */
export const UPLOAD_LIMIT = { max: 60, windowSeconds: 10 * 60 }
export const UPLOAD_DAY_LIMIT = { max: 500, windowSeconds: 24 * 3600 }

export type UploadView = { id: string; url: string; width: number; height: number }

/**
 * Stores an image a user uploaded for a task (reference, mask, line art): checked by its
 * bytes, decoded safely, re-encoded as PNG (lossless, so masks keep exact pixels).
 */
export async function createUpload(userId: string, bytes: Buffer): Promise<UploadView> {
  // Counted before decoding: a refused image costs the server its decode too.
  await takeAttempt(
    [
      { key: `upload:user:${userId}`, ...UPLOAD_LIMIT },
      { key: `upload:day:user:${userId}`, ...UPLOAD_DAY_LIMIT },
    ],
    '上传',
  )
  const png = await reencodeImage(bytes, { width: MAX_UPLOAD_SIDE, height: MAX_UPLOAD_SIDE, fit: 'inside' }, 'png')
  const { width = 0, height = 0 } = await sharp(png).metadata()
  const storageKey = newKey('uploads', 'png')
  const url = await putFile(storageKey, png)
  const row = await db().uploadedImage.create({
    data: { userId, url, storageKey, width, height, bytes: png.length },
    select: { id: true, url: true, width: true, height: true },
  })
  return row
}
