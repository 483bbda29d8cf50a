/**
 * Reading values a test knows are there (noUncheckedIndexedAccess types every `list[i]`
 * as possibly undefined). Each throws a readable error when the value is missing, so a
 * broken test fails at the line that assumed it, not later on `undefined.id`.
 * Plain throws, no vitest: bench/ and the e2e specs use them too.
 */

/**
 * The item at `index`. A negative index is refused rather than counted from the end: it is
 * usually a findIndex() or indexOf() that found nothing.
 */
export function at<T>(list: ArrayLike<T>, index: number): T {
  if (!Number.isInteger(index) || index < 0 || index >= list.length) throw new Error(`expected an item at index ${index}, the list has ${list.length}`)
  return list[index] as T
}

/** The first item. */
export const first = <T>(list: ArrayLike<T>): T => at(list, 0)

/** The one and only item: throws unless the list has exactly one. */
export function only<T>(list: ArrayLike<T>): T {
  if (list.length !== 1) throw new Error(`expected exactly one item, the list has ${list.length}`)
  return list[0] as T
}

/** The two items of a list of exactly two, to destructure: `const [a, b] = pair(rows)`. */
export function pair<T>(list: ArrayLike<T>): [T, T] {
  if (list.length !== 2) throw new Error(`expected exactly two items, the list has ${list.length}`)
  return [list[0] as T, list[1] as T]
}

/** The value, which must not be undefined or null; `what` names it in the error. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, got ${value}`)
  return value
}
