import { readdir, rm } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { createTestDatabase } from '../helpers/test-database'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

/**
 * One migrated database for the whole integration run, dropped at the end. Its time zone
 * is not UTC (as on many servers in China), so any SQL that depends on the session's time
 * zone shows up in every test.
 */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase('aiimg_it', { timeZone: 'Asia/Shanghai' })
  project.provide('databaseUrl', database.url)
  return async () => {
    await database.drop()
    // Files the tests stored (uploads, results) live in .tmp/it-data-<pid>.
    const tmp = `${process.cwd()}/.tmp`
    for (const dir of (await readdir(tmp).catch(() => [])).filter((d) => d.startsWith('it-data-'))) await rm(`${tmp}/${dir}`, { recursive: true, force: true })
  }
}
