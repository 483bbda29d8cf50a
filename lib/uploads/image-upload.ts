import sharp from 'sharp'
import { badRequest } from '@/lib/http/app-error'
import { payloadTooLarge, readBodyWithin } from '@/lib/http/body-limit'

/** docs/PRODUCT.md §9: uploads are limited to 10MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
/** Larger images are refused before decoding (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif'

/** The image type told by the file's first bytes, never by its name or declared type. */
export function sniffImageType(bytes: Uint8Array): ImageKind | null {
  const b = bytes
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return 'png'
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') return 'webp'
  if (b.length >= 6 && ['GIF87a', 'GIF89a'].includes(String.fromCharCode(...b.subarray(0, 6)))) return 'gif'
  return null
}

/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024
/** The request body limit of upload routes: declare it as the route's `maxBodyBytes`. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD

/**
 * Reads the one file of a multipart upload. The body is counted as it streams in and
 * the upload refused as soon as it passes the limit, so neither a large Content-Length
 * nor a chunked body without one gets buffered whole.
 */
export async function readUploadedFile(req: Request, field = 'file'): Promise<Buffer> {
  const body = await readBodyWithin(req, UPLOAD_BODY_LIMIT)
  let form: FormData
  try {
    form = await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
      headers: { 'content-type': req.headers.get('content-type') ?? '' },
    }).formData()
  } catch {
    throw badRequest('请以 multipart/form-data 上传文件')
  }
  const file = form.get(field)
  if (!(file instanceof Blob) || file.size === 0) throw badRequest('请选择要上传的图片')
  if (file.size > MAX_UPLOAD_BYTES) throw payloadTooLarge('文件不能超过 10MB')
  return Buffer.from(await file.arrayBuffer())
}

/**
 * Decodes an uploaded image safely and re-encodes it (which also drops EXIF, GPS and
 * anything smuggled after the image data).
 */
export async function reencodeImage(
  bytes: Buffer,
  resize: { width: number; height: number; fit: 'cover' | 'inside' },
  format: 'webp' | 'png' = 'webp',
): Promise<Buffer> {
  if (!sniffImageType(bytes)) throw badRequest('只支持 JPG、PNG、WebP 或 GIF 图片')
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ ...resize, withoutEnlargement: resize.fit === 'inside' })
    return await (format === 'png' ? image.png() : image.webp({ quality: 86 })).toBuffer()
  } catch {
    throw badRequest('图片无法解析或尺寸过大')
  }
}
