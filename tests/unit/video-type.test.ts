import { describe, expect, it } from 'vitest'
import { sniffVideoType } from '@/lib/videos/video-type'

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)))

describe('sniffVideoType', () => {
  it('tells MP4, MOV and WebM by their first bytes', () => {
    expect(sniffVideoType(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]))).toBe('mp4')
    expect(sniffVideoType(bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]))).toBe('mov')
    expect(sniffVideoType(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]))).toBe('webm')
  })

  it('refuses anything else, whatever its name would say', () => {
    expect(sniffVideoType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))).toBeNull()
    expect(sniffVideoType(bytes('ftyp'))).toBeNull()
    expect(sniffVideoType(new Uint8Array(0))).toBeNull()
  })
})
