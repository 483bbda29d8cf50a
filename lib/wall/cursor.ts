/**
 * Keyset cursors for the wall: the last row's sort key and id, so a page continues after
 * exactly that row however many works are added before it (docs/DECISIONS.md).
 */
export type WallCursor = { key: number; id: string }

export function encodeCursor(cursor: WallCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url')
}

/** The largest key of each order: a like count is an int4, a time in ms must make a Date. */
const MAX_KEY = { hot: 2_147_483_647, new: 8_640_000_000_000_000 } as const

/** The cursor, or null when it is not one of ours (the caller answers 400). */
export function decodeCursor(text: string, sort: keyof typeof MAX_KEY): WallCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || value.length !== 2) return null
    const [key, id] = value as unknown[]
    if (typeof key !== 'number' || !Number.isSafeInteger(key) || key < 0 || key > MAX_KEY[sort]) return null
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null
    return { key, id }
  } catch {
    return null
  }
}
