// How the database layer names its statements and writes page sizes into them (lib/db.ts, lib/db/read-rows.ts).
import { describe, expect, it } from 'vitest'
import { statementNames } from '@/lib/db'
import { pageLimit } from '@/lib/db/read-rows'

describe('statementNames', () => {
  it('gives a text the same name every time, and another text another name', () => {
    const names = statementNames()
    const a = names({ sql: 'SELECT 1' })
    expect(names({ sql: 'SELECT 1' })).toBe(a)
    expect(names({ sql: 'SELECT 2' })).not.toBe(a)
  })
  it('leaves texts past the limit unnamed, and keeps the names it gave', () => {
    const names = statementNames(2)
    const first = names({ sql: 'SELECT 1' })
    names({ sql: 'SELECT 2' })
    expect(names({ sql: 'SELECT 3' })).toBeUndefined()
    expect(names({ sql: 'SELECT 1' })).toBe(first)
  })
})

describe('pageLimit', () => {
  it('writes a page size into the statement, and refuses anything else', () => {
    expect(pageLimit(20).text).toBe('20')
    expect(pageLimit(20).values).toEqual([])
    for (const bad of [-1, 1.5, 1_001, Number.NaN]) expect(() => pageLimit(bad)).toThrow()
  })
})
