import { describe, expect, it } from 'vitest'
import { changedFromRow } from '@/components/admin/shared/changed-from-row'

describe("an edit form's changed fields", () => {
  const row = { id: 3, name: '水彩风', price: 5, enabled: false, cover: null, defaultParams: { steps: 28, cfgScale: 6 }, sort: 0 }

  it('are the ones typed differently from the row the form was opened on; the rest are left for others to change', () => {
    const body = { name: '水彩风·新', price: 5, enabled: true, cover: null, defaultParams: { steps: 28, cfgScale: 6 }, sort: 0 }
    expect(changedFromRow(row, body)).toEqual({ name: '水彩风·新', enabled: true })
  })

  it('compare objects by value, and an empty field the same as a missing one', () => {
    expect(changedFromRow(row, { defaultParams: { steps: 30, cfgScale: 6 }, cover: undefined })).toEqual({ defaultParams: { steps: 30, cfgScale: 6 } })
    expect(changedFromRow(row, { name: '水彩风', sort: 0 })).toEqual({})
  })
})
