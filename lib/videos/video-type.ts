/** The container told by the file's first bytes, never by its name: MP4, MOV (QuickTime) or WebM. */
export type VideoContainer = 'mp4' | 'mov' | 'webm'

export function sniffVideoType(b: Uint8Array): VideoContainer | null {
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'webm'
  if (b.length >= 12 && String.fromCharCode(...b.subarray(4, 8)) === 'ftyp') return String.fromCharCode(...b.subarray(8, 12)) === 'qt  ' ? 'mov' : 'mp4'
  return null
}
