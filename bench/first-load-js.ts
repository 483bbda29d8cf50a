// First-load JavaScript of every page of the production build, read from the build's
// manifests (Next.js 16 no longer prints sizes): the framework's root chunks plus the
// chunks of the page and of each layout above it, each file counted once, raw and gzipped
// (what the browser downloads with compression on). Prints figures; asserts nothing.
//   Run: npm run build && npm run bench:first-load-js   (--json for machine-readable output)
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const next = path.resolve(import.meta.dirname, '../.next')
const routes: Record<string, string> = JSON.parse(await readFile(path.join(next, 'app-path-routes-manifest.json'), 'utf8'))
const build = JSON.parse(await readFile(path.join(next, 'build-manifest.json'), 'utf8')) as { rootMainFiles: string[] }

const sizes = new Map<string, { raw: number; gzip: number }>()
async function sizeOf(file: string) {
  let size = sizes.get(file)
  if (!size) {
    const bytes = await readFile(path.join(next, file))
    size = { raw: bytes.length, gzip: gzipSync(bytes).length }
    sizes.set(file, size)
  }
  return size
}

/** The chunks a page's client reference manifest says its page and layouts load. */
async function entryFiles(entry: string): Promise<string[]> {
  const manifest = path.join(next, 'server/app', `${entry}_client-reference-manifest.js`)
  const holder = globalThis as unknown as { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> }
  holder.__RSC_MANIFEST = {}
  // The manifest is a script that assigns to globalThis.__RSC_MANIFEST.
  new Function(await readFile(manifest, 'utf8'))()
  const own = holder.__RSC_MANIFEST[entry]
  if (!own) return []
  const files: string[] = []
  for (const [segment, chunks] of Object.entries(own.entryJSFiles)) {
    if (segment.endsWith('/layout') || segment === `[project]/app${entry}`) files.push(...chunks)
  }
  return files
}

const rows: Array<{ route: string; files: number; kB: number; 'gzip kB': number }> = []
for (const [entry, route] of Object.entries(routes)) {
  if (!entry.endsWith('/page') || entry.startsWith('/_')) continue
  const files = [...new Set([...build.rootMainFiles, ...(await entryFiles(entry))])]
  let raw = 0
  let gzip = 0
  for (const file of files) {
    const size = await sizeOf(file)
    raw += size.raw
    gzip += size.gzip
  }
  rows.push({ route, files: files.length, kB: Math.round(raw / 1024), 'gzip kB': Math.round(gzip / 1024) })
}
rows.sort((a, b) => a.route.localeCompare(b.route))

let sharedGzip = 0
for (const file of build.rootMainFiles) sharedGzip += (await sizeOf(file)).gzip
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ sharedGzipKb: Math.round(sharedGzip / 1024), rows }))
} else {
  console.log(`\nFirst-load JS per page (gzip); the framework's root chunks alone: ${Math.round(sharedGzip / 1024)} kB gzip`)
  console.table(rows)
  const gz = rows.map((r) => r['gzip kB']).sort((a, b) => a - b)
  console.log(`pages: ${rows.length}; gzip kB min ${gz[0]}, median ${gz[Math.floor(gz.length / 2)]}, max ${gz.at(-1)}`)
}
