// Random payment histories for the notification spec: each sequence is one order, made with
// POST /api/orders, then driven through the real endpoints by a seeded random mix of what the
// buyer, WeChat Pay / Alipay, the page and an admin do, some steps at once. Every answer and
// every status seen is checked as it comes; the money is checked in bulk at the end.
import { alipayNotification, payAlipayOrder, payWechatOrder, providerState, wechatNotification, type WechatNotification } from '../../e2e/support/payment-fakes'
import { api, makeOrder, sendAlipay, sendWechat, sql, type MadeOrder } from './payments'

export const OPS = ['pay', 'notify', 'replay', 'query', 'cancel', 'mark-paid'] as const
export type Op = (typeof OPS)[number]
/** How often each step is drawn: paying silently, the provider notifying (and retrying), the page polling, the buyer cancelling, an admin. */
const WEIGHTS: Record<Op, number> = { pay: 4, notify: 5, replay: 3, query: 3, cancel: 2, 'mark-paid': 1 }

/** WeChat NATIVE, Alipay QR (the trade exists at once) or Alipay page pay (the trade exists once the buyer opens the cashier). */
export type Kind = 'wechat' | 'alipay-qr' | 'alipay-page'
export type Sequence = { index: number; kind: Kind; user: number; steps: Op[][] }

/** One random sequence: 2-6 steps, each one op or (three times in ten) two or three ops at once. */
export function drawSequence(rnd: () => number, index: number, users: number): Sequence {
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0)
  const draw = (): Op => {
    let x = rnd() * total
    for (const op of OPS) if ((x -= WEIGHTS[op]) < 0) return op
    return 'query'
  }
  const steps: Op[][] = []
  for (let n = 2 + Math.floor(rnd() * 5); n > 0; n--) steps.push(rnd() < 0.3 ? Array.from({ length: 2 + Math.floor(rnd() * 2) }, draw) : [draw()])
  const kind: Kind = rnd() < 0.5 ? 'wechat' : rnd() < 0.6 ? 'alipay-qr' : 'alipay-page'
  return { index, kind, user: Math.floor(rnd() * users), steps }
}

export type Played = {
  sequence: Sequence
  order: MadeOrder
  /** The provider says paid at the end, or an admin asked to mark it paid: it must end SUCCESS. */
  mustSucceed: boolean
  problems: string[]
  requests: number
}

/** Plays one sequence against the site; the provider's last retry of its notification ends it. */
export async function play(sequence: Sequence, token: string, adminToken: string, productId: number): Promise<Played> {
  const wechat = sequence.kind === 'wechat'
  const order = await makeOrder(token, productId, wechat ? 'WECHAT' : 'ALIPAY', sequence.kind === 'alipay-page' ? 'page' : 'qr')
  const problems: string[] = []
  // Alipay sends nothing for a page trade nobody opened: it does not exist there yet.
  let exists = sequence.kind !== 'alipay-page'
  let requests = 1
  let marked = false
  let successSeenAt = Infinity
  let last: WechatNotification | string | null = null
  const see = (op: string, startedAt: number, status: unknown) => {
    if (status === 'SUCCESS') successSeenAt = Math.min(successSeenAt, Date.now())
    else if (startedAt > successSeenAt) problems.push(`${op} saw ${String(status)} after SUCCESS`)
  }
  const notify = async (op: string, reuse: boolean) => {
    if (!exists) return
    if (!reuse || last === null) last = wechat ? await wechatNotification(order.outTradeNo) : await alipayNotification(order.outTradeNo)
    requests++
    const reply = typeof last === 'string' ? await sendAlipay(last) : await sendWechat(last)
    const ok = typeof last === 'string' ? reply.status === 200 && reply.text === 'success' : reply.status === 204
    if (!ok) problems.push(`${op} answered ${reply.status} ${reply.text.slice(0, 100)}`)
  }
  const run = async (op: Op) => {
    const startedAt = Date.now()
    switch (op) {
      case 'pay':
        if (wechat) return payWechatOrder(order.outTradeNo, { notify: false })
        // The buyer opens the cashier (a page trade starts to exist, even after our cancel) and pays.
        if (!exists) await (await fetch(order.payment.alipayUrl!)).arrayBuffer()
        exists = true
        return payAlipayOrder(order.outTradeNo, { notify: false })
      case 'notify':
        return notify(op, false)
      case 'replay':
        return notify(op, true)
      case 'query': {
        requests++
        const res = await api(token, 'GET', `/api/orders/${order.id}`)
        if (res.status !== 200) problems.push(`query answered ${res.status} ${res.message}`)
        return see(op, startedAt, res.data?.status)
      }
      case 'cancel': {
        requests++
        const res = await api(token, 'POST', `/api/orders/${order.id}/cancel`)
        if (res.status === 200) return see(op, startedAt, res.data?.status)
        if (res.status !== 400) problems.push(`cancel answered ${res.status} ${res.message}`)
        return
      }
      case 'mark-paid': {
        requests++
        marked = true
        const res = await api(adminToken, 'POST', `/api/admin/orders/${order.id}/mark-paid`, { reason: '随机序列' })
        if (res.status === 200) return see(op, startedAt, res.data?.status)
        if (res.status !== 400) problems.push(`mark-paid answered ${res.status} ${res.message}`)
        return
      }
    }
  }
  for (const step of sequence.steps) await Promise.all(step.map(run))
  await notify('final retry', false)
  const state = await providerState(wechat ? 'WECHAT' : 'ALIPAY', order.outTradeNo)
  return { sequence, order, mustSucceed: marked || state === 'SUCCESS' || state === 'TRADE_SUCCESS', problems, requests }
}

export type Verdict = { orderId: string; status: string; closed: boolean; flag: string | null; credits: number; points: number; charges: number }

/** Every order's money in one query: status, whether it was closed, flag, credits, credited points and charge records. */
export async function verdicts(orderIds: string[]): Promise<Map<string, Verdict>> {
  const { rows } = await sql().query<Verdict>(
    `SELECT o.id AS "orderId", o.status::text AS status, o."closedAt" IS NOT NULL AS closed, o.flag,
       COUNT(DISTINCT l.id) FILTER (WHERE l.kind = 'ORDER_CREDIT')::int AS credits,
       COALESCE(SUM(l.amount) FILTER (WHERE l.kind = 'ORDER_CREDIT' AND l.account = 'POINTS'), 0)::int AS points,
       (SELECT count(*)::int FROM "ChargeRecord" c WHERE c."orderId" = o.id) AS charges
     FROM "Order" o LEFT JOIN "LedgerEntry" l ON l.reference IN ('order:' || o.id || ':points', 'order:' || o.id || ':balance')
     WHERE o.id = ANY($1) GROUP BY o.id`,
    [orderIds],
  )
  return new Map(rows.map((r) => [r.orderId, r]))
}
