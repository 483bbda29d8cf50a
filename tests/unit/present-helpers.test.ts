import { describe, expect, it } from 'vitest'
import { at, first, only, pair, present } from '../helpers/present'

/** The test helpers for values a test knows are there: the value, or an error naming what is missing. */
describe('present helpers', () => {
  it('at() reads by index and refuses outside the list, a negative index (a failed findIndex) included', () => {
    expect(at(['a', 'b', 'c'], 1)).toBe('b')
    expect(() => at(['a'], 1)).toThrow('expected an item at index 1, the list has 1')
    expect(() => at(['a', 'b'], -1)).toThrow('expected an item at index -1, the list has 2')
  })

  it('first(), only() and pair()', () => {
    expect(first([3, 4])).toBe(3)
    expect(() => first([])).toThrow('expected an item at index 0, the list has 0')
    expect(only(['x'])).toBe('x')
    expect(() => only(['x', 'y'])).toThrow('expected exactly one item, the list has 2')
    expect(() => only([])).toThrow('expected exactly one item, the list has 0')
    expect(pair([1, 2])).toEqual([1, 2])
    expect(() => pair([1, 2, 3])).toThrow('expected exactly two items, the list has 3')
  })

  it('present() lets 0 and empty strings through, not undefined or null', () => {
    expect(present(0, 'a count')).toBe(0)
    expect(present('', 'a name')).toBe('')
    expect(() => present(undefined, 'the card')).toThrow('expected the card, got undefined')
    expect(() => present(null, 'the card')).toThrow('expected the card, got null')
  })
})
