import { readFile } from 'node:fs/promises'
import path from 'node:path'

const cache = new Map<string, Promise<Buffer>>()

/** A pre-rendered label from lib/generation/assets (read once per process). */
export function asset(name: 'ai-mark.png' | 'demo-label.png'): Promise<Buffer> {
  let bytes = cache.get(name)
  if (!bytes) {
    bytes = readFile(path.join(process.cwd(), 'lib/generation/assets', name))
    cache.set(name, bytes)
  }
  return bytes
}
