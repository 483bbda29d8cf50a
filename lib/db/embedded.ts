import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { lockDataDir } from './data-dir-lock'
import { PGliteServer } from './pglite-server'

export type EmbeddedDatabase = { url: string; stop(): Promise<void> }

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly) keeping its files
 * in `dataDir`, served over the PostgreSQL wire protocol on a loopback port so the
 * app talks to it exactly as it talks to a real server. PGlite runs one statement
 * batch (and one transaction) at a time, so a pool of a few connections is plenty.
 */
export async function startEmbeddedDatabase(dataDir: string, port = 0): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true })
  const unlock = await lockDataDir(`${dataDir}.lock`)
  try {
    const db = await PGlite.create(dataDir)
    const server = new PGliteServer(db)
    const address = await server.listen(port, '127.0.0.1')
    return {
      url: `postgresql://postgres:postgres@${address.host}:${address.port}/postgres?sslmode=disable`,
      async stop() {
        await server.close()
        await db.close()
        await unlock()
      },
    }
  } catch (error) {
    await unlock()
    throw error
  }
}
