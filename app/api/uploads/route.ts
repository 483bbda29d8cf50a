// POST /api/uploads (multipart, field "file", ≤10MB, JPG/PNG/WebP/GIF) → data: {id, url, width, height}.
import { route } from '@/lib/http/route'
import { createUpload } from '@/lib/uploads/create-upload'
import { UPLOAD_BODY_LIMIT, readUploadedFile } from '@/lib/uploads/image-upload'

export const POST = route({ access: 'user', maxBodyBytes: UPLOAD_BODY_LIMIT }, async ({ req, user }) => createUpload(user.id, await readUploadedFile(req)))
