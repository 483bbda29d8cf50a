// POST /api/admin/videos/uploads (ADMIN) {size, name?} → data {id, chunkSize, chunks, direct?: {url, contentType}}: starts a chunked
// upload of a video original, or with S3 a presigned PUT straight to the bucket.
import { route } from '@/lib/http/route'
import { startUpload } from '@/lib/videos/chunked-upload'
import { ZUploadInit } from '@/lib/videos/schemas'

export const POST = route({ access: 'admin', body: ZUploadInit }, ({ user, body }) => startUpload(user.id, body.size, body.name))
