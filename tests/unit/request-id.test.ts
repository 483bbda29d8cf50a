import { describe, expect, it, vi } from 'vitest'
import { newRequestId } from '@/lib/api-client/request-id'

describe('newRequestId', () => {
  it('makes version-4 UUIDs from getRandomValues, without crypto.randomUUID (missing on plain-HTTP pages)', () => {
    const randomUUID = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
      throw new Error('not a secure context')
    })
    const ids = Array.from({ length: 1000 }, newRequestId)
    randomUUID.mockRestore()
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
