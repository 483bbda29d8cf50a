import { describe, expect, it } from 'vitest'
import { changedFields, startingValues } from '@/components/admin/users/user-form-changes'
import type { UserRow } from '@/lib/api-client/resources/admin-users'

const row = { name: '小王', role: 'USER', mobile: '13800000001', bannedAt: null } as UserRow

describe('the user edit dialog’s changes', () => {
  const start = startingValues(row)

  it('sends nothing for an untouched form', () => {
    expect(changedFields(start, start)).toEqual({})
    expect(changedFields(start, { ...start, name: '  小王 ', mobile: ' 13800000001' })).toEqual({})
  })

  // The list may be older than the row: a field shown but not touched must not be written back.
  it('sends only the fields that were changed', () => {
    expect(changedFields(start, { ...start, name: ' 王小二 ' })).toEqual({ name: '王小二' })
    expect(changedFields(start, { ...start, role: 'MANAGER' })).toEqual({ role: 'MANAGER' })
    expect(changedFields(start, { ...start, banned: true })).toEqual({ banned: true })
    expect(changedFields(start, { ...start, password: 'new-password-1' })).toEqual({ password: 'new-password-1' })
  })

  it('sends an emptied mobile as "", which unbinds it', () => {
    expect(changedFields(start, { ...start, mobile: '  ' })).toEqual({ mobile: '' })
  })

  it('starts from the row, a banned one included, or from blanks for a new user', () => {
    expect(startingValues({ ...row, mobile: null, bannedAt: '2026-01-01T00:00:00.000Z' })).toEqual({
      name: '小王',
      role: 'USER',
      mobile: '',
      banned: true,
      password: '',
    })
    expect(changedFields(startingValues({ ...row, bannedAt: '2026-01-01T00:00:00.000Z' }), { ...start, banned: false })).toEqual({ banned: false })
    expect(startingValues(null)).toEqual({ name: '', role: 'USER', mobile: '', banned: false, password: '' })
  })
})
