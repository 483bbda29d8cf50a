/** One byte range of a file of `size` bytes, inclusive, as HTTP Range asks for it. */
export type ByteRange = { start: number; end: number }

/**
 * The Range header of a GET (`bytes=0-`, `bytes=100-199`, `bytes=-500`): the one range
 * asked for, 'unsatisfiable' when it lies beyond the file (416), or null to send the whole
 * file (no header, a unit other than bytes, or several ranges, which we do not serve).
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}
