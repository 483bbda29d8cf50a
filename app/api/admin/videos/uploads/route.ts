// POST /api/admin/videos/uploads (ADMIN) {size} → data {id, chunkSize, chunks}: starts a chunked upload of a video original.
import { route } from '@/lib/http/route'
import { startUpload } from '@/lib/videos/chunked-upload'
import { ZUploadInit } from '@/lib/videos/schemas'

export const POST = route({ access: 'admin', body: ZUploadInit }, ({ user, body }) => startUpload(user.id, body.size))
