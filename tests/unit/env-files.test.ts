import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { loadEnvFiles } from '../../scripts/env-files'

const saved = { ...process.env }
let dir: string | undefined
afterEach(async () => {
  vi.unstubAllEnvs()
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
  Object.assign(process.env, saved)
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('every entry point reads the .env files as the web does: .env.local over .env, the environment over both', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'env-files-'))
  await writeFile(path.join(dir, '.env'), 'AIIMG_TEST_FROM_FILE=env\nAIIMG_TEST_LOCAL=env\nAIIMG_TEST_SET=env\n')
  await writeFile(path.join(dir, '.env.local'), 'AIIMG_TEST_LOCAL=local\n')
  process.env.AIIMG_TEST_SET = 'shell'
  vi.stubEnv('NODE_ENV', 'production') // as `npm start` and `npm run worker` run (under test, Next.js skips .env.local)
  loadEnvFiles(false, dir)
  expect(process.env.AIIMG_TEST_FROM_FILE).toBe('env')
  expect(process.env.AIIMG_TEST_LOCAL).toBe('local')
  expect(process.env.AIIMG_TEST_SET).toBe('shell')
})
