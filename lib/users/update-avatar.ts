import { takeAttempt } from '@/lib/auth/rate-limit'
import { db } from '@/lib/db'
import { newKey, putFile, removeFile, storedKeyOf } from '@/lib/storage/storage'
import { reencodeImage } from '@/lib/uploads/image-upload'
import { updateProfile } from './update-profile'
import type { Profile } from './user-views'

/** Per user: picking a picture takes a few tries, never dozens; each one is decoded and stored. */
export const AVATAR_LIMIT = { max: 20, windowSeconds: 10 * 60 }

/** Stores a 256×256 WebP of the uploaded picture and makes it the user's avatar; the one it replaces is removed. */
export async function updateAvatar(userId: string, upload: Buffer): Promise<Profile> {
  await takeAttempt([{ key: `avatar:user:${userId}`, ...AVATAR_LIMIT }], '上传')
  const image = await reencodeImage(upload, { width: 256, height: 256, fit: 'cover' })
  const before = await db().user.findUnique({ where: { id: userId }, select: { avatar: true } })
  const url = await putFile(newKey('avatars', 'webp'), image)
  const profile = await updateProfile(userId, { avatar: url })
  const old = before && storedKeyOf(before.avatar, 'avatars')
  if (old) await removeFile(old).catch((error: unknown) => console.warn(`[avatar] could not remove the replaced ${old}:`, error))
  return profile
}
