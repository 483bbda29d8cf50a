import type { ConfigItemView } from './site-config-editor'

export type Value = string | number | boolean
/** The fields being edited in one group, by setting name; every other field shows the server's value. */
export type Edits = Record<string, Value>

export function shownValue(item: ConfigItemView, edits: Edits): Value {
  return edits[item.name] ?? item.value
}

export function changedItems(items: ConfigItemView[], edits: Edits): ConfigItemView[] {
  return items.filter((item) => item.name in edits && edits[item.name] !== item.value)
}

/**
 * The order to save in: switches turned off first, switches turned on last, so one save
 * can fill in a service's settings and turn it on (the server refuses to turn on what
 * cannot work, and to break what is on).
 */
export function saveOrder(changed: ConfigItemView[], edits: Edits): ConfigItemView[] {
  const rank = (item: ConfigItemView) => (item.type !== 'boolean' ? 1 : edits[item.name] ? 2 : 0)
  return [...changed].sort((a, b) => rank(a) - rank(b))
}

/** After a save: saved fields show the server's value again (a secret masked, not as typed). */
export function withoutSaved(edits: Edits, saved: readonly string[]): Edits {
  return Object.fromEntries(Object.entries(edits).filter(([name]) => !saved.includes(name)))
}
