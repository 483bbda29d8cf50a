// Restart recovery: cards left PENDING by a process that died (no NOTIFY will ever come for
// them) are settled by the real background worker as soon as it starts.
import { afterEach, describe, expect, it } from 'vitest'
import { CHECK_CARDS_JOB } from '@/lib/cards/check-pending-cards'
import { db } from '@/lib/db'
import { startBackgroundWorker, type RunningWorker } from '@/lib/worker/background-worker'
import { backgroundJobs } from '@/lib/worker/jobs'
import { freshKeys, insertCards } from '../helpers/cards-fixtures'
import { at } from '../helpers/present'

let worker: RunningWorker | undefined
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not settled within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('the worker after a restart', () => {
  it('settles PENDING cards left behind, without any signal, across several chunks', async () => {
    // 2,500 cards (three chunks of the check), one repeat far from its first copy, one malformed
    // key: written straight into the tables, as an import that committed before its process died.
    const keys = freshKeys(2_498, 'RESTART')
    const cards = await insertCards([...keys, at(keys, 3), 'bad'], { status: 'PENDING' })
    expect(await db().card.count({ where: { status: 'PENDING' } })).toBe(2_500)

    const log: string[] = []
    worker = startBackgroundWorker(backgroundJobs(), (message) => log.push(message))
    // Nobody wakes the job: it must find the work by itself when it starts (its interval is a minute).
    expect(backgroundJobs().find((j) => j.name === CHECK_CARDS_JOB)?.intervalMs).toBeGreaterThanOrEqual(60_000)
    await waitUntil(async () => (await db().card.count({ where: { status: 'PENDING' } })) === 0, 20_000)

    const settled = await db().card.findMany({ where: { id: { in: cards.map((c) => c.id) } }, orderBy: { id: 'asc' } })
    expect(settled.slice(0, 2_498).every((c) => c.status === 'SUCCESS')).toBe(true)
    expect(settled.slice(2_498).map((c) => [c.status, c.failReason])).toEqual([
      ['FAIL', `与同批次卡密重复（卡号 ${at(cards, 3).cardNo}）`],
      ['FAIL', '格式不正确：卡密需为 4-128 个字符'],
    ])
    expect(log.filter((line) => line.includes(`${CHECK_CARDS_JOB} failed`))).toEqual([])
  }, 30_000)
})
