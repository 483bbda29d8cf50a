import { isRecord, okJson, parseJson, send, testOutcome, type HttpReply } from './http'
import { connectMjProxy, fetchTask, mjAddress, type MjAddress } from './mj-connection'
import { submitMjJob } from './mj-submit'
import type { MjTask } from './mj-task'
import { waitForMjJob } from './mj-wait'
import { BackendError, type BackendAdapter, type BackendConfig, type TestResult } from './types'

/** An id no proxy has (ids are millisecond timestamps or snowflakes): test() fetches it when list-by-condition is missing. */
const HEALTH_PROBE_ID = '1000000000000000'

/**
 * The midjourney-proxy (docs/PROTOCOLS.md §1: novicezk, plus, trueai and relays). Submits
 * imagine, blend, describe or a button (mj-submit.ts), then waits by polling
 * list-by-condition in batches (mj-wait.ts); the proxy's notify hook only nudges a poll.
 * Secret = the `mj-api-secret` header. Options: `pollIntervalMs` (default 3000).
 */
export function createMjProxyAdapter(config: BackendConfig): BackendAdapter {
  const proxy = connectMjProxy(config)
  return {
    kind: 'mj-proxy',
    submit: (job, ctx) => submitMjJob(proxy, job, ctx),
    wait: (upstreamId, job, ctx) => waitForMjJob(proxy, upstreamId, job, ctx),
    interrupt: (upstreamId) => interruptMjJob(proxy, upstreamId),
    test: () => testMjProxy(proxy),
  }
}

/** trueai's cancel; other builds have none and let the job run out. */
async function interruptMjJob(proxy: MjAddress, upstreamId: string | null): Promise<void> {
  if (upstreamId)
    await send(`${proxy.base}/mj/task/${encodeURIComponent(upstreamId)}/cancel`, { method: 'POST', json: {}, headers: proxy.headers, timeoutMs: 10_000 }).catch(
      () => undefined,
    )
}

function testMjProxy(proxy: MjAddress): Promise<TestResult> {
  return testOutcome(async () => {
    const listing = await send(`${proxy.base}/mj/task/list-by-condition`, { json: { ids: [] }, headers: proxy.headers, timeoutMs: 10_000 })
    // Builds without list-by-condition are polled task by task: their fetch must answer instead.
    const polling = listing.status === 404 ? await checkFetch(proxy) : checkListing(listing)
    const accounts = await send(`${proxy.base}/mj/account/list`, { headers: proxy.headers, timeoutMs: 10_000 }).then(
      (r) => (r.status === 200 ? parseJson(r) : null),
      () => null,
    )
    const count = Array.isArray(accounts) ? `，${accounts.length} 个账号` : ''
    return { message: `连接正常：Midjourney Proxy${count}${polling === 'fetch' ? '（没有 list-by-condition，逐个查询任务）' : ''}` }
  })
}

function checkListing(reply: HttpReply): 'list' {
  if (!Array.isArray(okJson(reply))) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（list-by-condition 没有返回数组）', false)
  return 'list'
}

/** The fetch of an id no proxy has: empty, null or a task object; a 404 or anything else means there is nothing to poll. */
async function checkFetch(proxy: MjAddress): Promise<'fetch'> {
  const reply = await send(`${proxy.base}/mj/task/${HEALTH_PROBE_ID}/fetch`, { headers: proxy.headers, timeoutMs: 10_000 })
  if (reply.status === 404) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（list-by-condition 和 task/fetch 都不存在）', false)
  const answer = reply.bytes.length === 0 ? null : okJson(reply)
  if (answer !== null && !isRecord(answer)) throw new BackendError('BAD_RESPONSE', '接口地址不像 Midjourney Proxy（task/fetch 没有返回任务）', false)
  return 'fetch'
}

/** The proxy's view of one task (the notify hook verifies a callback with it). */
export function fetchMjTask(config: BackendConfig, id: string): Promise<MjTask | null> {
  return fetchTask(mjAddress(config), id)
}
