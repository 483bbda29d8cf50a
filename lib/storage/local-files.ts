import { createReadStream } from 'node:fs'
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import path from 'node:path'
import { env } from '@/lib/env'

/** Files kept in DATA_DIR/files and served by app/files/[...key] (the default). */
export const FILES_URL_PREFIX = '/files/'
/**
 * Keys under this folder are never served by the public /files route (nor are they public in
 * a bucket: presigned GETs only): paid and free video originals (docs/PRODUCT.md §18).
 */
export const PRIVATE_PREFIX = 'private/'
export const isPrivateKey = (key: string) => key.startsWith(PRIVATE_PREFIX)
const KEY_PATTERN = /^[a-z0-9-]+(\/[a-zA-Z0-9._-]+)+$/

export function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`)
}

function fileFor(key: string): string {
  assertKey(key)
  return path.join(path.resolve(env().DATA_DIR, 'files'), key)
}

/** Writes atomically (temp file + rename), so a reader never sees half a file. */
export async function putLocal(key: string, bytes: Buffer): Promise<string> {
  const file = fileFor(key)
  await mkdir(path.dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, bytes)
  await rename(temp, file)
  return FILES_URL_PREFIX + key
}

/** Moves (or copies, across file systems) a finished file on disk into the store under the key. */
export async function putLocalFromPath(key: string, source: string): Promise<void> {
  const file = fileFor(key)
  await mkdir(path.dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  try {
    await rename(source, temp)
  } catch {
    await copyFile(source, temp)
  }
  await rename(temp, file)
}

/** Removes a stored file; a missing one is fine. */
export async function removeLocal(key: string): Promise<void> {
  await rm(fileFor(key), { force: true })
}

/** Null for a key that is malformed or not stored. */
export async function readLocal(key: string): Promise<Buffer | null> {
  try {
    return await readFile(fileFor(key))
  } catch {
    return null
  }
}

/** The size of a stored file, or null when it is not stored (or the key is malformed). */
export async function localSize(key: string): Promise<number | null> {
  try {
    const info = await stat(fileFor(key))
    return info.isFile() ? info.size : null
  } catch {
    return null
  }
}

/** A stream of bytes start..end (inclusive) of a stored file, for a ranged answer (videos seek). */
export function localStream(key: string, range: { start: number; end: number }): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(fileFor(key), range)) as ReadableStream<Uint8Array>
}
