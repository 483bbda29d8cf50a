// What the payment notification specs share: the site's notify URLs called as the providers call
// them, orders made and read through the API, and the money read back with SQL on the e2e database.
import { readdirSync, readFileSync } from 'node:fs'
import pg from 'pg'
import { E2E_BASE_URL, E2E_DATABASE_URL_FILE, E2E_WEB_PID_FILE } from '../../e2e/support/constants'
import type { WechatNotification } from '../../e2e/support/payment-fakes'

export type Reply = { status: number; text: string }

/** POSTs a notification to /api/pay/wechat/notify exactly as WeChat Pay does. */
export async function sendWechat(n: WechatNotification): Promise<Reply> {
  const res = await fetch(`${E2E_BASE_URL}/api/pay/wechat/notify`, { method: 'POST', headers: n.headers, body: n.body })
  return { status: res.status, text: await res.text() }
}

/** POSTs a form body to /api/pay/alipay/notify exactly as Alipay does. */
export async function sendAlipay(body: string): Promise<Reply> {
  const res = await fetch(`${E2E_BASE_URL}/api/pay/alipay/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  })
  return { status: res.status, text: await res.text() }
}

export type Api = { status: number; data: Record<string, unknown> | null; message?: string }

/** One call to the site's API with a bearer token; the envelope's data (or its message). */
export async function api(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Api> {
  const res = await fetch(`${E2E_BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: { data?: Record<string, unknown> | null; errMessage?: string } = {}
  try {
    parsed = JSON.parse(text) as typeof parsed
  } catch {
    parsed = { errMessage: text.slice(0, 200) }
  }
  return { status: res.status, data: parsed.data ?? null, message: parsed.errMessage }
}

export type MadeOrder = { id: string; outTradeNo: string; channel: 'WECHAT' | 'ALIPAY'; payment: Record<string, string> }

/** A pending order for a points pack: WeChat NATIVE or Alipay (qr unless told). */
export async function makeOrder(token: string, productId: number, channel: 'WECHAT' | 'ALIPAY', alipayMethod: 'qr' | 'page' = 'qr'): Promise<MadeOrder> {
  const res = await api(token, 'POST', '/api/orders', {
    productId,
    type: 'POINTS',
    channel,
    ...(channel === 'WECHAT' ? { tradeType: 'NATIVE' } : { alipayMethod }),
  })
  if (res.status !== 200 || !res.data) throw new Error(`POST /api/orders: ${res.status} ${res.message}`)
  const order = res.data.order as { id: string; outTradeNo: string }
  return { id: order.id, outTradeNo: order.outTradeNo, channel, payment: res.data.payment as Record<string, string> }
}

let pool: pg.Pool | undefined
/** SQL on the e2e database (reads, and the one fault injection that needs it). */
export function sql(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: readFileSync(E2E_DATABASE_URL_FILE, 'utf8').trim(), max: 4 })
  return pool
}

export async function closeSql(): Promise<void> {
  await pool?.end()
  pool = undefined
}

export type Money = { status: string; flag: string | null; credits: number; creditedPoints: number; chargeRecords: number; outcomes: Record<string, number> }

/** What an order ended as: its status and flag, its ledger credits, charge records and notification outcomes. */
export async function moneyOf(orderId: string): Promise<Money> {
  const { rows } = await sql().query<{
    status: string
    flag: string | null
    credits: number
    points: number
    charges: number
    outcomes: Record<string, number> | null
  }>(
    `SELECT o.status::text AS status, o.flag,
       (SELECT count(*)::int FROM "LedgerEntry" l WHERE l.reference IN ('order:' || o.id || ':points', 'order:' || o.id || ':balance') AND l.kind = 'ORDER_CREDIT') AS credits,
       (SELECT COALESCE(sum(l.amount), 0)::int FROM "LedgerEntry" l WHERE l.reference IN ('order:' || o.id || ':points', 'order:' || o.id || ':balance') AND l.kind = 'ORDER_CREDIT' AND l.account = 'POINTS') AS points,
       (SELECT count(*)::int FROM "ChargeRecord" c WHERE c."orderId" = o.id) AS charges,
       (SELECT json_object_agg(outcome, n) FROM (SELECT outcome, count(*)::int AS n FROM "PaymentNotification" p WHERE p."orderId" = o.id GROUP BY outcome) x) AS outcomes
     FROM "Order" o WHERE o.id = $1`,
    [orderId],
  )
  const row = rows[0]
  if (!row) throw new Error(`no order ${orderId}`)
  return { status: row.status, flag: row.flag, credits: row.credits, creditedPoints: row.points, chargeRecords: row.charges, outcomes: row.outcomes ?? {} }
}

/** Notifications recorded with an outcome since a given notification id (rejected ones name no order). */
export async function outcomesSince(afterId: number): Promise<Record<string, number>> {
  const { rows } = await sql().query<{ outcome: string; n: number }>(
    `SELECT outcome, count(*)::int AS n FROM "PaymentNotification" WHERE id > $1 GROUP BY outcome`,
    [afterId],
  )
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]))
}

export async function lastNotificationId(): Promise<number> {
  const { rows } = await sql().query<{ id: number }>(`SELECT COALESCE(max(id), 0)::int AS id FROM "PaymentNotification"`)
  return rows[0]!.id
}

/** mulberry32: a small seeded PRNG, so a failing random run can be replayed from its printed seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** CPU seconds (user + system) a set of processes has used so far, from /proc. */
function cpuSecondsOf(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100
}

/** The process and all its live descendants. */
function treeOf(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // gone meanwhile
    }
  }
  const out = [root]
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []))
  return out
}

/**
 * CPU used by everything a run exercises: the e2e server's process tree (the fakes, the web
 * launcher, the Next server, the worker), the database's backends for the e2e database, and this
 * test process. The machine is shared, so wall time alone says little; CPU per sequence does.
 */
export async function cpuNow(): Promise<number> {
  const web = Number(readFileSync(E2E_WEB_PID_FILE, 'utf8'))
  const stat = readFileSync(`/proc/${web}/stat`, 'utf8')
  const server = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  const { rows } = await sql().query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
  const own = process.cpuUsage()
  return cpuSecondsOf([...treeOf(server), ...rows.map((r) => r.pid)]) + (own.user + own.system) / 1e6
}
