// How the database layer names its statements and writes page sizes into them (lib/db.ts, lib/db/read-rows.ts).
import { describe, expect, it } from 'vitest'
import { statementNames } from '@/lib/db'
import { isoTimestamp, pageLimit } from '@/lib/db/read-rows'

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

describe('isoTimestamp', () => {
  it('is the text JSON gives the Date of a TIMESTAMP column: milliseconds always, microseconds cut', () => {
    for (const [text, iso] of [
      ['2026-01-01 00:00:00', '2026-01-01T00:00:00.000Z'],
      ['2026-11-27 08:05:09.5', '2026-11-27T08:05:09.500Z'],
      ['2026-11-27 23:59:59.12', '2026-11-27T23:59:59.120Z'],
      ['2024-02-29 12:00:00.123', '2024-02-29T12:00:00.123Z'],
      ['2026-11-27 08:05:09.123456', '2026-11-27T08:05:09.123Z'],
      ['2026-11-27 08:05:09.999999', '2026-11-27T08:05:09.999Z'],
    ]) {
      expect(isoTimestamp(text!)).toBe(iso)
      // What the Date that $queryRaw answered would become in JSON.
      expect(JSON.stringify(new Date(`${text!.replace(' ', 'T')}Z`))).toBe(JSON.stringify(iso))
    }
  })
})
