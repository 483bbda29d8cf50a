import 'server-only'
import sharp from 'sharp'
import { db } from '@/lib/db'
import { newKey, putFile } from '@/lib/storage/storage'
import { reencodeImage } from './image-upload'

/** Inputs larger than this are scaled down: no backend takes more. */
export const MAX_UPLOAD_SIDE = 2048

export type UploadView = { id: string; url: string; width: number; height: number }

/**
 * Stores an image a user uploaded for a task (reference, mask, line art): checked by its
 * bytes, decoded safely, re-encoded as PNG (lossless, so masks keep exact pixels).
 */
export async function createUpload(userId: string, bytes: Buffer): Promise<UploadView> {
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
