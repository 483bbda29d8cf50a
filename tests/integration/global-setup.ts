import type { TestProject } from 'vitest/node'
import { createTestDatabase } from '../helpers/test-database'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

/** One migrated database for the whole integration run, dropped at the end. */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase('aiimg_it')
  project.provide('databaseUrl', database.url)
  return () => database.drop()
}
