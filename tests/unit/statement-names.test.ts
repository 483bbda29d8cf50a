import { describe, expect, it } from 'vitest'
import { statementNames } from '@/lib/db'

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
