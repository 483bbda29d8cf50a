// Applies pending migrations (production deploys; `npm start` does it too): as the schema
// owner's MIGRATION_DATABASE_URL when set, else DATABASE_URL.
import { applyMigrations } from '../lib/db/migrate'
import { parseEnv } from '../lib/env'
import { loadEnvFiles } from './env-files'

loadEnvFiles()
const { DATABASE_URL, MIGRATION_DATABASE_URL } = parseEnv()
const url = MIGRATION_DATABASE_URL ?? DATABASE_URL
if (!url) {
  console.error('Neither MIGRATION_DATABASE_URL nor DATABASE_URL is set (the embedded database is migrated by `npm start`).')
  process.exit(1)
}
const applied = await applyMigrations(url)
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply: the schema is up to date.')
