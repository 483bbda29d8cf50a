import { expect } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { E2E_WORKER_PID_FILE } from './constants'

async function workerPid(): Promise<number> {
  let pid = 0
  await expect(async () => {
    pid = Number(await readFile(E2E_WORKER_PID_FILE, 'utf8'))
    expect(pid).toBeGreaterThan(0)
  }).toPass({ timeout: 20_000 })
  return pid
}

/** Freezes the separate worker process (SIGSTOP): background work waits. */
export async function pauseWorker(): Promise<void> {
  process.kill(await workerPid(), 'SIGSTOP')
}

/** Lets it run again; it then handles what was announced while it slept. */
export async function resumeWorker(): Promise<void> {
  process.kill(await workerPid(), 'SIGCONT')
}
