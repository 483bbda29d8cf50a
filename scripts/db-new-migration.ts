// Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes a
// database from the existing migrations to prisma/schema.prisma.
// Usage: npm run db:migration -- <name>
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { MIGRATIONS_DIR, NO_FILTER, SCHEMA_PATH, openSchemaEngine, readMigrationList } from '../lib/db/schema-engine'

const name = (process.argv[2] ?? '').trim()
if (!/^[a-z0-9_]+$/.test(name)) {
  console.error('Usage: npm run db:migration -- <name>   (lower-case letters, digits and _)')
  process.exit(1)
}

// The existing migrations are replayed into a throw-away in-memory database (the
// "shadow database"), and the engine diffs that against the schema file.
const engine = await openSchemaEngine(new PrismaPGlite(new PGlite()))
const migrations = await readMigrationList()
const schema = await readFile(SCHEMA_PATH, 'utf8')
const diff = await engine.diff({
  from: migrations.lockfile.content ? { tag: 'migrations', ...migrations } : { tag: 'empty' },
  to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
  script: true,
  exitCode: null,
  filters: NO_FILTER,
})
engine.free()
const stdout = diff.stdout ?? ''

if (!stdout.trim() || stdout.includes('-- This is an empty migration.')) {
  console.log('The schema matches the migrations: nothing to write.')
  process.exit(0)
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`)
await mkdir(dir, { recursive: true })
await writeFile(path.join(dir, 'migration.sql'), stdout)
if (!migrations.lockfile.content) {
  await writeFile(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), '# Written by scripts/db-new-migration.ts\nprovider = "postgresql"\n')
}
console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql; review it, add CHECKs or triggers by hand if needed.`)
