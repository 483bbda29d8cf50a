import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { at } from '../helpers/present'

/**
 * The repository must stand alone: a reader has only its files. Every document a file
 * points at must be one of them (docs/PRODUCT.md, docs/PROTOCOLS.md, ...), and a section
 * it names ("docs/PRODUCT.md §8") must be a heading there.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const THIS_FILE = path.relative(ROOT, import.meta.filename)

type Text = { file: string; lines: string[] }

function trackedTexts(): Text[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  const texts: Text[] = []
  for (const file of files) {
    const full = path.join(ROOT, file)
    if (!existsSync(full)) continue // deleted in the working tree, not yet committed
    const bytes = readFileSync(full)
    if (bytes.includes(0)) continue // binary
    texts.push({ file, lines: bytes.toString('utf8').split('\n') })
  }
  return texts
}

/** Names of documents that live outside the repository, and the way code used to cite them. */
const OUTSIDE_NAMES = /\bSPEC\b|SPEC\.md|DESIGN\.md|PLATFORM\.md|PROTOCOLS\.md|\.\.\/shared/g

/**
 * A mention is fine when it is a path into docs/ that exists, or, inside docs/, a
 * relative name of a file beside it.
 */
function isRepositoryPath(file: string, line: string, index: number, match: string): boolean {
  if (!match.endsWith('.md')) return false
  if (line.slice(Math.max(0, index - 5), index) === 'docs/') return existsSync(path.join(ROOT, 'docs', match))
  return file.startsWith('docs/') && existsSync(path.join(ROOT, path.dirname(file), match))
}

function outsideReferences(texts: Text[]): string[] {
  const found: string[] = []
  for (const { file, lines } of texts) {
    if (file === THIS_FILE) continue // its samples are wrong on purpose
    lines.forEach((line, i) => {
      for (const m of line.matchAll(OUTSIDE_NAMES)) {
        if (!isRepositoryPath(file, line, m.index, m[0])) found.push(`${file}:${i + 1}: ${line.trim()}`)
      }
    })
  }
  return found
}

const DOC_PATH = /(?<![\w.-])docs\/([\w/-]+\.md)(?: §(\d+(?:\.\d+)*))?/g

function headingExists(doc: string, section: string): boolean {
  const escaped = section.replace(/\./g, '\\.')
  return new RegExp(`^#{1,6}\\s+${escaped}\\.?(?:\\s|$)`, 'm').test(doc)
}

function brokenDocLinks(texts: Text[]): string[] {
  const broken: string[] = []
  for (const { file, lines } of texts) {
    if (file === THIS_FILE) continue // its samples are wrong on purpose
    lines.forEach((line, i) => {
      for (const m of line.matchAll(DOC_PATH)) {
        const target = path.join(ROOT, 'docs', at(m, 1))
        const where = `${file}:${i + 1}: ${m[0]}`
        if (!existsSync(target)) broken.push(`${where} (no such file)`)
        else if (m[2] && !headingExists(readFileSync(target, 'utf8'), m[2])) broken.push(`${where} (no section ${m[2]})`)
      }
    })
  }
  return broken
}

describe('documentation references', () => {
  const texts = trackedTexts()

  it('name no document outside the repository', () => {
    expect(outsideReferences(texts)).toEqual([])
  })

  it('point at docs/ files and sections that exist', () => {
    expect(brokenDocLinks(texts)).toEqual([])
  })

  it('are recognised when they are wrong', () => {
    const sample: Text[] = [
      { file: 'lib/a.ts', lines: ['// see SPEC section 8', '// PROTOCOLS.md A 2b', '// docs/PROTOCOLS.md §1.8', '// ../shared/x'] },
      { file: 'docs/X.md', lines: ['[PRODUCT.md](PRODUCT.md)', 'DESIGN.md'] },
    ]
    expect(outsideReferences(sample)).toEqual([
      'lib/a.ts:1: // see SPEC section 8',
      'lib/a.ts:2: // PROTOCOLS.md A 2b',
      'lib/a.ts:4: // ../shared/x',
      'docs/X.md:2: DESIGN.md',
    ])
    const links: Text[] = [{ file: 'lib/b.ts', lines: ['docs/PRODUCT.md §8', 'docs/PRODUCT.md §99', 'docs/NOPE.md', 'docs/PROTOCOLS.md §1.8'] }]
    expect(brokenDocLinks(links)).toEqual(['lib/b.ts:2: docs/PRODUCT.md §99 (no section 99)', 'lib/b.ts:3: docs/NOPE.md (no such file)'])
  })
})
