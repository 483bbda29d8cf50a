import { afterAll, beforeAll, inject } from 'vitest'
import { disconnectDb } from '@/lib/db'
import { invalidateConfigCache } from '@/lib/site-config/store'
import { truncateAll } from '../helpers/test-database'

process.env.DATABASE_URL = inject('databaseUrl')
process.env.AUTH_SECRET = 'integration-tests-secret-0123456789abcdefghij'
process.env.DATABASE_POOL_SIZE = '20'
process.env.DATA_DIR = `${process.cwd()}/.tmp/it-data-${process.pid}`

beforeAll(async () => {
  await truncateAll(inject('databaseUrl'))
  invalidateConfigCache()
})

afterAll(async () => {
  await disconnectDb()
})
