// GET /files/{key}: stored files, immutable (keys are never reused), served as what they are.
import { readLocal } from '@/lib/storage/local-files'

const TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' }

export async function GET(_req: Request, { params }: { params: Promise<{ key: string[] }> }) {
  const key = (await params).key.join('/')
  const type = TYPES[key.split('.').at(-1)?.toLowerCase() ?? '']
  const bytes = type ? await readLocal(key) : null
  if (!bytes || !type) return new Response('Not found', { status: 404 })
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline',
    },
  })
}
