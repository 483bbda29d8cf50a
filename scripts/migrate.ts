// Applies pending migrations to DATABASE_URL (production deploys; `npm start` does it too).
import { applyMigrations } from '../lib/db/migrate'
import { parseEnv } from '../lib/env'

const { DATABASE_URL } = parseEnv(process.env)
if (!DATABASE_URL) {
  console.error('DATABASE_URL is not set (the embedded database is migrated by `npm start`).')
  process.exit(1)
}
const applied = await applyMigrations(DATABASE_URL)
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply: the schema is up to date.')
