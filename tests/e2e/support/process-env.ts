import { readFileSync } from 'node:fs'

/** A running process's own environment, read from /proc: to start another process as it was started. */
export function environmentOf(pid: number | string): NodeJS.ProcessEnv {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean)
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])) as NodeJS.ProcessEnv
}
