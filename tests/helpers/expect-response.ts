import { expect } from 'vitest'
import type { CallResult } from './call-route'

/** Asserts a successful envelope and returns its data. */
export function expectOk<T = any>(res: CallResult<T>): T {
  expect(res.body, `expected success, got ${res.status} ${res.body.errMessage ?? ''}`).toMatchObject({ success: true })
  expect(res.status).toBe(200)
  return res.body.data
}

/**
 * Asserts a failed envelope with this status; `message` is the exact errMessage, or a
 * RegExp it must match. Returns the errMessage.
 */
export function expectFail(res: CallResult, status: number, message?: string | RegExp): string {
  expect({ status: res.status, success: res.body.success, data: res.body.data }).toEqual({ status, success: false, data: null })
  expect(res.body.errMessage).toEqual(expect.any(String))
  expect(res.body.code).toEqual(expect.any(String))
  if (typeof message === 'string') expect(res.body.errMessage).toBe(message)
  else if (message) expect(res.body.errMessage).toMatch(message)
  return res.body.errMessage!
}
