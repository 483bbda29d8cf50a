import { newKey, putFile } from '@/lib/storage/storage'
import { reencodeImage } from '@/lib/uploads/image-upload'
import { updateProfile } from './update-profile'
import type { Profile } from './user-views'

/** Stores a 256×256 WebP of the uploaded picture and makes it the user's avatar. */
export async function updateAvatar(userId: string, upload: Buffer): Promise<Profile> {
  const image = await reencodeImage(upload, { width: 256, height: 256, fit: 'cover' })
  const url = await putFile(newKey('avatars', 'webp'), image)
  return updateProfile(userId, { avatar: url })
}
