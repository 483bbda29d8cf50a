// `npm run worker`: the background worker as its own process. Run any number of them
// on any machine that reaches the database. SIGTERM/SIGINT finish the current work first.
import { env } from '../lib/env'
import { disconnectDb } from '../lib/db'
import { startWorker } from '../lib/worker/start-worker'
import { loadEnvFiles } from './env-files'

loadEnvFiles()
env()
const worker = startWorker()

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`[worker] ${signal}: draining`)
  await worker.stop()
  await disconnectDb()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
