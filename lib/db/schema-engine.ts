import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg'
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils'
import type { SchemaEngine, MigrationList, SchemaFilter } from '@prisma/schema-engine-wasm'

/**
 * Prisma's schema engine compiled to WebAssembly: migrations without the native
 * engine binary (which cannot be downloaded on offline machines). The package's own
 * entry imports the .wasm file as an ES module, which Node refuses, so we instantiate
 * it by hand (see docs/DEVELOPMENT.md §2).
 */
let ready: Promise<void> | undefined

function loadWasm(): Promise<void> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url)
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'))
    const bytes = await readFile(path.join(dir, 'schema_engine_bg.wasm'))
    const bindings = wasmBindings as unknown as Record<string, unknown> & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void
    }
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bindings } as WebAssembly.Imports)
    bindings.__wbg_set_wasm(instance.exports)
    ;(instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start()
  })()
  return ready
}

export const PRISMA_DIR = path.resolve(process.cwd(), 'prisma')
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations')
export const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma')
export const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] }

/** Opens the engine on a driver adapter factory (pg for servers, PGlite for scratch databases). */
export async function openSchemaEngine(adapterFactory: unknown): Promise<SchemaEngine> {
  await loadWasm()
  const schemaText = await readFile(SCHEMA_PATH, 'utf8')
  const { SchemaEngine } = wasmBindings as unknown as { SchemaEngine: typeof import('@prisma/schema-engine-wasm').SchemaEngine }
  const quiet = () => {}
  return SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schemaText]] },
    quiet,
    bindMigrationAwareSqlAdapterFactory(adapterFactory as Parameters<typeof bindMigrationAwareSqlAdapterFactory>[0]),
  )
}

/** Reads prisma/migrations the way `prisma migrate deploy` does. */
export async function readMigrationList(): Promise<MigrationList> {
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml')
  const lockfile = await readFile(lockPath, 'utf8').catch(() => null)
  const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true }).catch(() => [])
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: await readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8')
          .then((value) => ({ tag: 'ok' as const, value }))
          .catch((e: Error) => ({ tag: 'error' as const, value: e.message })),
      },
    })),
  )
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: lockfile },
    shadowDbInitScript: '',
    migrationDirectories,
  }
}
