import { describe, expect, it } from 'vitest'
import { parseTask, readTaskId } from '@/lib/generation/backends/mj-task'
import { BackendError } from '@/lib/generation/backends/types'

describe('Midjourney task ids (docs/PROTOCOLS.md §1.9: strings, never Number())', () => {
  it('keeps strings as they are and exact numbers as their digits', () => {
    expect(readTaskId('1732512345678123456')).toBe('1732512345678123456')
    expect(readTaskId(1732512345678123)).toBe('1732512345678123')
    expect(readTaskId(undefined)).toBeNull()
    expect(readTaskId('')).toBeNull()
  })

  it('refuses a number JSON.parse has already rounded: it would name another task', () => {
    const rounded = JSON.parse('{"id": 1732512345678123456}').id as number
    expect(String(rounded)).not.toBe('1732512345678123456')
    for (const value of [rounded, Number.MAX_SAFE_INTEGER + 1, -1, 1.5]) {
      expect(() => readTaskId(value)).toThrow(BackendError)
    }
    expect(() => parseTask({ id: rounded, status: 'SUCCESS' })).toThrow(/超出精度/)
    const thrown = (() => {
      try {
        return readTaskId(rounded)
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toMatchObject({ code: 'BAD_RESPONSE', retryable: false })
  })
})
