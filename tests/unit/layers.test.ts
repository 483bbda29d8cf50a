import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { at, first } from '../helpers/present'

// Checks the imports of lib/, app/ and components/ against the layer table of
// docs/ARCHITECTURE.md ("Layers"), and that lib/ has no import cycle.

const root = path.resolve(import.meta.dirname, '../..')

type Import = { target: string; isTypeOnly: boolean }

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (rel !== 'lib/generated') walk(rel, out)
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(rel)
  }
  return out
}

function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('@/')) base = specifier.slice(2)
  else if (specifier.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
  else return null
  // Prisma's generated client exists only after `npm run db:generate`.
  if (base.startsWith('lib/generated/')) return `${base}.ts`
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    const full = path.join(root, candidate)
    if (existsSync(full) && statSync(full).isFile()) return candidate
  }
  throw new Error(`${from}: cannot resolve ${specifier}`)
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s+'([^']+)'/gm
const DYNAMIC = /import\(\s*'([^']+)'\s*\)/g

function importsOf(file: string): Import[] {
  const source = readFileSync(path.join(root, file), 'utf8')
  const found: Import[] = []
  for (const m of source.matchAll(STATIC)) {
    const target = resolveSpecifier(file, at(m, 4))
    if (!target) continue
    const names = at(m, 3).trim()
    const everyNameIsType =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type '))
    found.push({ target, isTypeOnly: Boolean(m[2]) || everyNameIsType })
  }
  for (const m of source.matchAll(DYNAMIC)) {
    const target = resolveSpecifier(file, at(m, 1))
    if (target) found.push({ target, isTypeOnly: false })
  }
  return found
}

/** The layer element a file belongs to (see the Layers section). */
function elementOf(file: string): string {
  if (file.startsWith('lib/generated/')) return 'lib/generated'
  if (file === 'lib/http/route.ts') return 'lib/http/route.ts'
  const signIn = file.match(/^lib\/auth\/(sms|wechat)\//)
  if (signIn) return `lib/auth/${signIn[1]}`
  if (file === 'lib/db.ts' || file.startsWith('lib/db/')) return 'lib/db'
  const parts = file.split('/')
  if (parts[0] === 'lib') return parts.length === 2 ? file : `lib/${parts[1]}`
  if (file.startsWith('app/api/')) return 'app/api'
  return first(parts)
}

type Row = { id: string; element: string; kind: string; allowed: string[] }

/** The table rows: | id | `element` | kind | may import |. */
function layerTable(): Row[] {
  const doc = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1))
  const rows: Row[] = []
  for (const line of section.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim())
    const element = cells[1]?.match(/^`([^`]+)`$/)?.[1]
    if (cells.length !== 4 || !element) continue
    const allowed = at(cells, 3)
    rows.push({ id: at(cells, 0), element, kind: at(cells, 2), allowed: allowed === '—' ? [] : allowed.split(',').map((t) => t.trim().replace(/^`|`$/g, '')) })
  }
  return rows
}

describe('layers (docs/ARCHITECTURE.md)', () => {
  const files = [...walk('lib'), ...walk('app'), ...walk('components')]
  const graph = new Map(files.map((f) => [f, importsOf(f)]))
  const rows = layerTable()
  const rowOf = new Map(rows.map((r) => [r.element, r]))
  const ofKind = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.element)
  const leaves = ofKind('leaf')

  const isServerOnly = new Map<string, boolean>()
  /** Whether a file reaches import 'server-only' through its value imports. */
  const reachesServerOnly = (file: string, seen = new Set<string>()): boolean => {
    if (isServerOnly.has(file)) return isServerOnly.get(file)!
    if (seen.has(file)) return false
    seen.add(file)
    const own = /^import 'server-only'$/m.test(readFileSync(path.join(root, file), 'utf8'))
    const result = own || (graph.get(file) ?? importsOf(file)).some((i) => !i.isTypeOnly && reachesServerOnly(i.target, seen))
    isServerOnly.set(file, result)
    return result
  }

  const isZod = new Map<string, boolean>()
  /** Whether a file reaches zod (the package or lib/zod.ts) through its value imports. */
  const reachesZod = (file: string, seen = new Set<string>()): boolean => {
    if (isZod.has(file)) return isZod.get(file)!
    if (seen.has(file)) return false
    seen.add(file)
    const own = file === 'lib/zod.ts' || /^\s*import\s+(?!type\s)[^']*from\s+'zod(\/[^']*)?'/m.test(readFileSync(path.join(root, file), 'utf8'))
    const result = own || (graph.get(file) ?? importsOf(file)).some((i) => !i.isTypeOnly && reachesZod(i.target, seen))
    isZod.set(file, result)
    return result
  }

  /** The elements a row allows, with its words expanded. */
  const allowedFor = (row: Row): Set<string> => {
    const allowed = new Set(leaves)
    for (const token of row.allowed) {
      if (token === 'foundation') ofKind('foundation').forEach((e) => allowed.add(e))
      else if (token === 'domains')
        ofKind('domain')
          .filter((e) => e !== 'lib/worker')
          .forEach((e) => allowed.add(e))
      else if (token !== 'shared modules') allowed.add(token)
    }
    if (row.kind === 'domain') ofKind('foundation').forEach((e) => allowed.add(e))
    return allowed
  }

  it('has a row for every element of lib/, app/ and components/, and every row names elements that exist', () => {
    const elements = new Set(files.map(elementOf))
    expect([...elements].filter((e) => !rowOf.has(e))).toEqual([])
    const words = new Set(['foundation', 'domains', 'shared modules'])
    expect(rows.flatMap((r) => r.allowed).filter((t) => !words.has(t) && !rowOf.has(t))).toEqual([])
  })

  it('a domain imports only domains above it in the table', () => {
    const domains = ofKind('domain')
    const wrong = rows
      .filter((r) => r.kind === 'domain')
      .flatMap((r) => r.allowed.filter((t) => domains.includes(t) && domains.indexOf(t) >= domains.indexOf(r.element)).map((t) => `${r.element} → ${t}`))
    expect(wrong).toEqual([])
  })

  it('every import is one the table allows (browser code: server modules only as import type, or modules that reach no server-only)', () => {
    const refused: string[] = []
    for (const [file, imports] of graph) {
      const from = elementOf(file)
      const row = rowOf.get(from)
      if (!row) continue
      const allowed = allowedFor(row)
      for (const { target, isTypeOnly } of imports) {
        const to = elementOf(target)
        if (to === from) continue
        if (allowed.has(to)) {
          if (row.kind === 'browser' && !isTypeOnly && reachesServerOnly(target)) refused.push(`${file} → ${target} (reaches server-only)`)
          continue
        }
        if (row.kind === 'browser' && to.startsWith('lib/') && (isTypeOnly || (row.allowed.includes('shared modules') && !reachesServerOnly(target)))) continue
        refused.push(`${file} → ${target}`)
      }
    }
    expect(refused).toEqual([])
  })

  it('browser code reaches no zod through value imports (the schemas stay on the server)', () => {
    const browser = new Set(ofKind('browser'))
    expect([...graph.keys()].filter((file) => browser.has(elementOf(file)) && reachesZod(file))).toEqual([])
  })

  it('lib/ has no import cycle (type imports count)', () => {
    const libFiles = files.filter((f) => f.startsWith('lib/'))
    const state = new Map<string, 'open' | 'done'>()
    const cycles: string[] = []
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '))
        return
      }
      state.set(file, 'open')
      for (const { target } of graph.get(file) ?? []) if (target.startsWith('lib/')) visit(target, [...trail, file])
      state.set(file, 'done')
    }
    libFiles.forEach((f) => visit(f, []))
    expect(cycles).toEqual([])
  })
})
