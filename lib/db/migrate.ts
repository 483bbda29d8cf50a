import { PrismaPg } from '@prisma/adapter-pg'
import { NO_FILTER, openSchemaEngine, readMigrationList } from './schema-engine'

type ScriptAdapter = {
  executeScript(script: string): Promise<void>
  dispose(): Promise<void>
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

/**
 * The engine's free() does not close what it connected, and the connection it leaves holds
 * Prisma's migration advisory lock: the next process to migrate would wait out the lock's
 * 10 s and fail. `close` ends every connection the engine opened.
 */
function migrationAdapterFactory(databaseUrl: string) {
  const factory = new PrismaPg({ connectionString: databaseUrl, max: 1 })
  const opened: ScriptAdapter[] = []
  const track = <T>(adapter: T): T => {
    opened.push(adapter as unknown as ScriptAdapter)
    return wholeScriptAdapter(adapter)
  }
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
    close: () => Promise.all(opened.splice(0).map((adapter) => adapter.dispose())),
  }
}

/**
 * Applies every migration under prisma/migrations that the database has not seen,
 * recording them in _prisma_migrations exactly as `prisma migrate deploy` would.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  const adapters = migrationAdapterFactory(databaseUrl)
  const engine = await openSchemaEngine(adapters)
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await readMigrationList(),
      filters: NO_FILTER,
    })
    return appliedMigrationNames
  } finally {
    engine.free()
    await adapters.close()
  }
}
