import { AppError, badRequest } from './app-error'

/** Default limit of a request body: JSON. 10,000 card keys are about 200 KB. */
export const JSON_BODY_LIMIT = 1024 * 1024
/** JSON deeper than this is refused before parsing (no legitimate body comes close). */
export const MAX_JSON_DEPTH = 64

const BRACKETS = { 0x5b: 1, 0x7b: 1, 0x5d: -1, 0x7d: -1 } as Record<number, number>

export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message)

/** The 413's text: an upload names the file, anything else the request. */
export function bodyTooLargeMessage(req: Request, limit: number): string {
  const upload = (req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/')
  return `${upload ? '文件' : '请求内容'}不能超过 ${formatBytes(limit)}`
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)}MB` : `${Math.round(bytes / 1024)}KB`
}

/** Refuses a body whose declared Content-Length is over the limit, before any of it is read. */
export function assertDeclaredLength(req: Request, limit: number): void {
  const declared = Number(req.headers.get('content-length') ?? 0)
  if (declared > limit) throw payloadTooLarge(bodyTooLargeMessage(req, limit))
}

/**
 * The request body, read chunk by chunk and cancelled once it passes `limit` bytes, so a
 * chunked body without Content-Length (or one that lies about it) is never buffered whole.
 */
export async function readBodyWithin(req: Request, limit: number): Promise<Buffer> {
  assertDeclaredLength(req, limit)
  if (!req.body) return Buffer.alloc(0)
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch {
      throw badRequest('请求体读取中断，请重试')
    }
    if (chunk.done) return Buffer.concat(chunks, size)
    size += chunk.value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => undefined)
      throw payloadTooLarge(bodyTooLargeMessage(req, limit))
    }
    chunks.push(chunk.value)
  }
}

/** The request body as UTF-8 text, read within `limit` bytes as readBodyWithin reads it. */
export async function readTextWithin(req: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBodyWithin(req, limit))
}

/**
 * Whether JSON text nests deeper than `max` arrays and objects. Counted on the text before
 * parsing: deep values overflow the stack of recursive code further on (JSON.stringify,
 * zod, Prisma) and ended as 500s.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (BRACKETS[c]) {
      depth += BRACKETS[c]
      if (depth > max) return true
    }
  }
  return false
}
