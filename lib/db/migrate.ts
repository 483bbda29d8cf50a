import { PrismaPg } from '@prisma/adapter-pg'
import { NO_FILTER, openSchemaEngine, readMigrationList } from './schema-engine'

type ScriptAdapter = {
  executeScript(script: string): Promise<void>
  underlyingDriver(): { query(sql: string): Promise<unknown> }
  onError?(error: unknown): never
}

/**
 * The pg adapter runs a migration by splitting it on ';', which breaks dollar-quoted
 * function bodies and applies half a file when a statement fails. Sending the whole
 * file as one simple query runs it in a single implicit transaction instead, as
 * `prisma migrate deploy` does.
 */
function wholeScriptAdapter<T>(adapter: T): T {
  const a = adapter as unknown as ScriptAdapter
  a.executeScript = async (script: string) => {
    try {
      await a.underlyingDriver().query(script)
    } catch (error) {
      if (a.onError) a.onError(error)
      throw error
    }
  }
  return adapter
}

function migrationAdapterFactory(databaseUrl: string) {
  const factory = new PrismaPg({ connectionString: databaseUrl, max: 1 })
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wholeScriptAdapter(await factory.connect()),
    connectToShadowDb: async () => wholeScriptAdapter(await factory.connectToShadowDb()),
  }
}

/**
 * Applies every migration under prisma/migrations that the database has not seen,
 * recording them in _prisma_migrations exactly as `prisma migrate deploy` would.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  const engine = await openSchemaEngine(migrationAdapterFactory(databaseUrl))
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await readMigrationList(),
      filters: NO_FILTER,
    })
    return appliedMigrationNames
  } finally {
    engine.free()
  }
}
