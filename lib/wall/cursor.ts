/**
 * Keyset cursors for the wall: the last row's sort key and id, so a page continues after
 * exactly that row however many works are added before it (docs/DECISIONS.md).
 */
export type WallCursor = { key: number; id: string }

export function encodeCursor(cursor: WallCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url')
}

/** The cursor, or null when it is not one of ours (the caller answers 400). */
export function decodeCursor(text: string): WallCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || value.length !== 2) return null
    const [key, id] = value as unknown[]
    if (typeof key !== 'number' || !Number.isSafeInteger(key) || typeof id !== 'string' || id.length === 0 || id.length > 64) return null
    return { key, id }
  } catch {
    return null
  }
}
