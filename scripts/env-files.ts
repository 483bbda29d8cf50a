import nextEnv from '@next/env'

/**
 * Reads the .env files (`.env`, `.env.local`, `.env.production` or `.env.development` and
 * their `.local`) into process.env the way Next.js does in the web process, so the launcher,
 * the migrations and a separate worker see the same configuration as the web. A variable
 * already set in the environment wins over the files. Call before anything reads the
 * environment.
 */
export function loadEnvFiles(dev = process.env.NODE_ENV === 'development', dir = process.cwd()): void {
  nextEnv.loadEnvConfig(dir, dev, { info: () => undefined, error: console.error })
}
