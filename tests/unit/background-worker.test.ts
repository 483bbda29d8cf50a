import { afterEach, describe, expect, it, vi } from 'vitest'
import { startBackgroundWorker, type RunningWorker } from '@/lib/worker/background-worker'

let worker: RunningWorker | undefined
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})

describe('the background worker', () => {
  it('a wake while the job sleeps runs it at once, not after its interval', async () => {
    let runs = 0
    worker = startBackgroundWorker([{ name: 'cards', intervalMs: 60_000, run: async () => void runs++ }], () => {})
    await vi.waitFor(() => expect(runs).toBe(1))
    worker.wake('cards')
    await vi.waitFor(() => expect(runs).toBe(2), { timeout: 500 })
  })

  it('a wake that arrives while the job runs is not lost: the job runs again right after', async () => {
    let runs = 0
    let finishFirst!: () => void
    const first = new Promise<void>((resolve) => (finishFirst = resolve))
    worker = startBackgroundWorker(
      [
        {
          name: 'cards',
          intervalMs: 60_000,
          run: async () => {
            runs++
            if (runs === 1) await first
          },
        },
      ],
      () => {},
    )
    await vi.waitFor(() => expect(runs).toBe(1))
    // New work announced while the first run is past the point where it looked for work.
    worker.wake('cards')
    // Signals for names that are no job (a task's cancel) change nothing.
    worker.wake('cancel:some-task')
    finishFirst()
    await vi.waitFor(() => expect(runs).toBe(2), { timeout: 500 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(runs).toBe(2)
  })
})
