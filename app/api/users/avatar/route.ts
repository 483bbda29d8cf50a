// POST /api/users/avatar (multipart, field "file", ≤10MB, JPG/PNG/WebP/GIF): sets the caller's avatar.
import { route } from '@/lib/http/route'
import { UPLOAD_BODY_LIMIT, readUploadedFile } from '@/lib/uploads/image-upload'
import { updateAvatar } from '@/lib/users/update-avatar'

export const POST = route({ access: 'user', maxBodyBytes: UPLOAD_BODY_LIMIT }, async ({ req, user }) => updateAvatar(user.id, await readUploadedFile(req)))
