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

/** Any Markdown file a text names: `PRODUCT.md`, `docs/PRODUCT.md`, `../elsewhere/NOTES.md`. */
const MARKDOWN_NAME = /(?<![\w.-])(?:\.{1,2}\/)*[\w./-]*?[\w-]+\.md\b/g
/** A numbered section cited in words ("section 8"): sections are cited as `docs/<file>.md §8`. */
const SECTION_IN_WORDS = /\bsection \d/gi

/**
 * Where a named Markdown file must be: under docs/ when the name starts with docs/; else
 * beside the naming file inside docs/, or at the repository's root (README.md). A name
 * that climbs out of the repository never resolves.
 */
function resolvesInRepository(file: string, name: string): boolean {
  const candidates = name.startsWith('docs/') ? [name] : [path.join(path.dirname(file), name), name]
  return candidates.some((candidate) => {
    const full = path.resolve(ROOT, candidate)
    return full.startsWith(ROOT + path.sep) && existsSync(full)
  })
}

function outsideReferences(texts: Text[]): string[] {
  const found: string[] = []
  for (const { file, lines } of texts) {
    if (file === THIS_FILE) continue // its samples are wrong on purpose
    if (file === 'package-lock.json') continue // npm writes it: packages' own metadata (a licence link to LICENSE.md), not our references
    lines.forEach((line, i) => {
      const unresolved = [...line.matchAll(MARKDOWN_NAME)].some((m) => !resolvesInRepository(file, m[0]))
      if (unresolved || SECTION_IN_WORDS.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`)
      SECTION_IN_WORDS.lastIndex = 0
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
    if (file === 'package-lock.json') continue // npm writes it: packages' own metadata (a licence link to LICENSE.md), not our references
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

  it('name only Markdown files of the repository, and cite sections as docs/<file>.md §N', () => {
    expect(outsideReferences(texts)).toEqual([])
  })

  it('point at docs/ files and sections that exist', () => {
    expect(brokenDocLinks(texts)).toEqual([])
  })

  it('are recognised when they are wrong', () => {
    const sample: Text[] = [
      {
        file: 'lib/a.ts',
        lines: ['// see the handbook, section 8', '// NOTES.md part 2', '// docs/PROTOCOLS.md §1.8', '// ../elsewhere/GUIDE.md', '// (see README.md)'],
      },
      { file: 'docs/X.md', lines: ['[PRODUCT.md](PRODUCT.md)', 'HANDBOOK.md'] },
    ]
    expect(outsideReferences(sample)).toEqual([
      'lib/a.ts:1: // see the handbook, section 8',
      'lib/a.ts:2: // NOTES.md part 2',
      'lib/a.ts:4: // ../elsewhere/GUIDE.md',
      'docs/X.md:2: HANDBOOK.md',
    ])
    const links: Text[] = [{ file: 'lib/b.ts', lines: ['docs/PRODUCT.md §8', 'docs/PRODUCT.md §99', 'docs/NOPE.md', 'docs/PROTOCOLS.md §1.8'] }]
    expect(brokenDocLinks(links)).toEqual(['lib/b.ts:2: docs/PRODUCT.md §99 (no section 99)', 'lib/b.ts:3: docs/NOPE.md (no such file)'])
  })
})
