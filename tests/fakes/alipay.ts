// A fake Alipay open platform gateway (openapi.alipay.com/gateway.do, docs/PROTOCOLS.md §10).
// It checks each request's RSA2 signature (sorted key=value pairs, everything but `sign`)
// with the app's public key, answers `{ <method>_response: {...}, sign }` signed with the
// Alipay private key over the response node's JSON text, serves a cashier page for page
// and wap pay, and sends form-encoded notifications signed like the real ones. Tests can
// lose, duplicate or tamper with the notifications.
import { createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import type http from 'node:http'
import { record, sendText, startServer, type RecordedRequest } from './common'

export type AlipayKeys = {
  appId: string
  sellerId: string
  /** The app's key pair: the site signs with the private half (its setting), the fake checks with the public half. */
  appPrivateKeyPem: string
  appPublicKey: KeyObject
  /** Alipay's key pair: the site gets the public half (its setting), the fake signs with the private half. */
  alipayPublicKeyPem: string
  alipayPrivateKey: KeyObject
}

export function makeAlipayKeys(): AlipayKeys {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    appId: '2021' + String(Date.now()).slice(-12),
    sellerId: '2088' + String(Math.floor(Math.random() * 1e12)).padStart(12, '0'),
    appPrivateKeyPem: app.privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
    appPublicKey: app.publicKey,
    alipayPublicKeyPem: alipay.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    alipayPrivateKey: alipay.privateKey,
  }
}

export type FakeAlipayTrade = {
  outTradeNo: string
  totalAmount: string
  subject: string
  notifyUrl?: string
  returnUrl?: string
  product: 'page' | 'wap' | 'qr'
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED'
  tradeNo?: string
  gmtPayment?: string
  /** Page and wap trades exist at Alipay only once the buyer opened the cashier. */
  opened: boolean
  refunded: string[]
}

export type FakeAlipayOptions = { keys: AlipayKeys; loseNotifications?: boolean; duplicate?: number }

/** Alipay's timestamps: yyyy-MM-dd HH:mm:ss in Beijing time. */
export function alipayTime(date = new Date()): string {
  return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}

/** The string both sides sign: sorted key=value pairs joined by &, skipping empty values and the named keys. */
export function alipaySignContent(params: Record<string, string>, skip: string[]): string {
  return Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
}

export type FakeAlipay = Awaited<ReturnType<typeof startFakeAlipay>>

export async function startFakeAlipay(options: FakeAlipayOptions) {
  const { keys } = options
  const calls: RecordedRequest[] = []
  const trades = new Map<string, FakeAlipayTrade>()
  const settings = {
    loseNotifications: options.loseNotifications ?? false,
    duplicate: options.duplicate ?? 1,
    /**
     * How a refund is answered: as made; 20000 (service busy, nothing made); made with its answer
     * lost (the connection cut); or accepted (code 10000, fund_change N) but not made yet, which the
     * refund query then does not show (each asking while this holds, until it is set back); or
     * refused as a closed trade (ACQ.TRADE_HAS_CLOSE), whatever was refunded before.
     */
    refundAnswer: 'made' as 'made' | 'busy' | 'lost' | 'accepted' | 'closed',
    /** How a trade query is answered: with the trade, or 20000 (service busy). */
    queryAnswer: 'trade' as 'trade' | 'busy',
  }
  const sent: { outTradeNo: string; status: number; body: string }[] = []

  const signWith = (key: KeyObject, content: string) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64')

  const respond = (res: http.ServerResponse, method: string, node: Record<string, unknown>) => {
    const nodeText = JSON.stringify(node)
    const key = `${method.replaceAll('.', '_')}_response`
    const text = `{"${key}":${nodeText},"sign":"${signWith(keys.alipayPrivateKey, nodeText)}"}`
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  }
  const businessError = (code: string, msg: string, subCode: string, subMsg: string) => ({ code, msg, sub_code: subCode, sub_msg: subMsg })

  const verified = (params: Record<string, string>): string | null => {
    if (params.app_id !== keys.appId) return 'app_id 不正确'
    if (params.sign_type !== 'RSA2') return 'sign_type 必须为 RSA2'
    if (!params.sign) return '缺少签名'
    const ok = createVerify('RSA-SHA256')
      .update(alipaySignContent(params, ['sign']), 'utf8')
      .verify(keys.appPublicKey, params.sign, 'base64')
    return ok ? null : '验签出错'
  }

  /** A notification as Alipay would POST it; `change` edits the fields before signing, `after` after. */
  const notificationFor = (outTradeNo: string, change: (p: Record<string, string>) => void = () => {}): string => {
    const trade = trades.get(outTradeNo)
    const params: Record<string, string> = {
      notify_time: alipayTime(),
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(16).toString('hex'),
      app_id: keys.appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade?.tradeNo ?? '2026' + randomBytes(8).toString('hex'),
      out_trade_no: outTradeNo,
      buyer_id: '2088102177846880',
      seller_id: keys.sellerId,
      // The trade as it stands (a closed trade is never reported paid); an unknown one as paid.
      trade_status: trade?.status ?? 'TRADE_SUCCESS',
      total_amount: trade?.totalAmount ?? '0.01',
      receipt_amount: trade?.totalAmount ?? '0.01',
      buyer_pay_amount: trade?.totalAmount ?? '0.01',
      subject: trade?.subject ?? '',
      gmt_create: alipayTime(),
      gmt_payment: trade?.gmtPayment ?? alipayTime(),
    }
    change(params)
    // Alipay leaves out empty fields rather than sending `key=`.
    for (const key of Object.keys(params)) if (params[key] === '') delete params[key]
    params.sign = signWith(keys.alipayPrivateKey, alipaySignContent(params, ['sign', 'sign_type']))
    return new URLSearchParams(params).toString()
  }

  const deliver = async (outTradeNo: string, body: string, url?: string): Promise<{ status: number; text: string }> => {
    const target = url ?? trades.get(outTradeNo)?.notifyUrl
    if (!target) throw new Error(`no notify_url for ${outTradeNo}`)
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body })
    const text = await res.text()
    sent.push({ outTradeNo, status: res.status, body })
    return { status: res.status, text }
  }

  /** The buyer pays: TRADE_SUCCESS and (unless lost) the notification. */
  const pay = async (outTradeNo: string, opts: { notify?: boolean } = {}): Promise<FakeAlipayTrade> => {
    const trade = trades.get(outTradeNo)
    if (!trade) throw new Error(`unknown trade ${outTradeNo}`)
    trade.opened = true
    if (trade.status === 'WAIT_BUYER_PAY') {
      trade.status = 'TRADE_SUCCESS'
      trade.tradeNo = '2026' + Date.now() + randomBytes(4).toString('hex')
      trade.gmtPayment = alipayTime()
    }
    if (opts.notify !== false && !settings.loseNotifications && trade.notifyUrl) {
      const body = notificationFor(outTradeNo)
      await Promise.all(Array.from({ length: settings.duplicate }, () => deliver(outTradeNo, body).catch(() => ({ status: 0, text: '' }))))
    }
    return trade
  }

  /** The merchant refunds a paid trade in full in Alipay's own platform: the trade closes, and (unless lost) TRADE_CLOSED is sent with the refund's fields. */
  const refundInPlatform = async (outTradeNo: string, opts: { notify?: boolean } = {}): Promise<void> => {
    const trade = trades.get(outTradeNo)
    if (trade?.status !== 'TRADE_SUCCESS') throw new Error(`trade ${outTradeNo} is not paid`)
    trade.status = 'TRADE_CLOSED'
    trade.refunded.push(`platform-${outTradeNo}`)
    if (opts.notify === false || settings.loseNotifications || !trade.notifyUrl) return
    const body = notificationFor(outTradeNo, (p) => {
      p.refund_fee = trade.totalAmount
      p.gmt_refund = `${alipayTime()}.000`
      p.gmt_close = alipayTime()
      p.out_biz_no = `platform-${outTradeNo}`
    })
    await deliver(outTradeNo, body)
  }

  const remember = (params: Record<string, string>, product: FakeAlipayTrade['product']): FakeAlipayTrade | string => {
    let biz: Record<string, unknown>
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>
    } catch {
      return 'biz_content 不是 JSON'
    }
    const outTradeNo = String(biz.out_trade_no ?? '')
    const total = String(biz.total_amount ?? '')
    if (!/^[0-9A-Za-z_]{1,64}$/.test(outTradeNo)) return 'out_trade_no 不合法'
    if (!/^\d{1,9}(\.\d{1,2})?$/.test(total) || Number(total) < 0.01) return 'total_amount 不合法'
    const existing = trades.get(outTradeNo)
    if (existing && existing.totalAmount !== total) return '交易信息被篡改'
    const trade: FakeAlipayTrade = existing ?? {
      outTradeNo,
      totalAmount: total,
      subject: String(biz.subject ?? ''),
      notifyUrl: params.notify_url,
      returnUrl: params.return_url,
      product,
      status: 'WAIT_BUYER_PAY',
      opened: product === 'qr',
      refunded: [],
    }
    trades.set(outTradeNo, trade)
    return trade
  }

  const server = await startServer(async (req, res, url, raw) => {
    const form = new URLSearchParams(raw.toString('utf8'))
    const params: Record<string, string> = Object.fromEntries(url.searchParams)
    for (const [k, v] of form) params[k] = v
    record(calls, req, url, params)

    if (url.pathname === '/__control/pay' && req.method === 'POST') {
      if (!trades.has(params.out_trade_no ?? '')) return sendText(res, 404, JSON.stringify({ error: 'ACQ.TRADE_NOT_EXIST' }), 'application/json')
      const trade = await pay(params.out_trade_no ?? '', { notify: params.notify !== 'false' })
      return sendText(res, 200, JSON.stringify({ status: trade.status }), 'application/json')
    }
    if (url.pathname === '/__control/trade' && req.method === 'GET') {
      const trade = trades.get(params.out_trade_no ?? '')
      if (!trade) return sendText(res, 404, JSON.stringify({ error: 'ACQ.TRADE_NOT_EXIST' }), 'application/json')
      return sendText(res, 200, JSON.stringify({ status: trade.status, opened: trade.opened, totalAmount: trade.totalAmount }), 'application/json')
    }
    // The notification Alipay would send for a trade, signed here, for a test to deliver itself;
    // the named fields (total_amount, app_id, seller_id, trade_status) are replaced before signing.
    if (url.pathname === '/__control/notification' && req.method === 'POST') {
      const body = notificationFor(params.out_trade_no ?? '', (p) => {
        for (const field of ['total_amount', 'app_id', 'seller_id', 'trade_status'] as const) if (params[field] !== undefined) p[field] = params[field]
      })
      return sendText(res, 200, JSON.stringify({ body }), 'application/json')
    }
    if (url.pathname === '/cashier/pay' && req.method === 'POST') {
      const trade = await pay(params.out_trade_no ?? '')
      const back = new URL(trade.returnUrl ?? 'about:blank')
      back.searchParams.set('out_trade_no', trade.outTradeNo)
      back.searchParams.set('total_amount', trade.totalAmount)
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (url.pathname !== '/gateway.do') return sendText(res, 404, 'not found', 'text/plain')

    const method = params.method ?? ''
    const refusal = verified(params)
    if (refusal) {
      if (req.method === 'GET') return sendText(res, 400, `<p>错误：${refusal}</p>`)
      return respond(res, method || 'error', businessError('40002', 'Invalid Arguments', 'isv.invalid-signature', refusal))
    }

    if ((method === 'alipay.trade.page.pay' || method === 'alipay.trade.wap.pay') && req.method === 'GET') {
      const trade = remember(params, method === 'alipay.trade.page.pay' ? 'page' : 'wap')
      if (typeof trade === 'string') return sendText(res, 400, `<p>错误：${trade}</p>`)
      trade.opened = true
      return sendText(
        res,
        200,
        `<!doctype html><meta charset="utf-8"><title>支付宝收银台</title><h1>支付宝收银台</h1><p>${escape(trade.subject)}</p><p>￥${trade.totalAmount}</p><form method="post" action="/cashier/pay"><input type="hidden" name="out_trade_no" value="${escape(trade.outTradeNo)}"><button type="submit">确认付款</button></form>`,
      )
    }

    let biz: Record<string, unknown> = {}
    try {
      biz = JSON.parse(params.biz_content ?? '{}') as Record<string, unknown>
    } catch {
      return respond(res, method, businessError('40002', 'Invalid Arguments', 'isv.invalid-parameter', 'biz_content 不是 JSON'))
    }
    const outTradeNo = String(biz.out_trade_no ?? '')
    const trade = trades.get(outTradeNo)
    const missing = () => businessError('40004', 'Business Failed', 'ACQ.TRADE_NOT_EXIST', '交易不存在')

    if (method === 'alipay.trade.precreate') {
      const made = remember(params, 'qr')
      if (typeof made === 'string') return respond(res, method, businessError('40002', 'Invalid Arguments', 'isv.invalid-parameter', made))
      return respond(res, method, {
        code: '10000',
        msg: 'Success',
        out_trade_no: made.outTradeNo,
        qr_code: `https://qr.alipay.com/bax0${made.outTradeNo.slice(-8)}`,
      })
    }
    if (method === 'alipay.trade.query') {
      if (settings.queryAnswer === 'busy') return respond(res, method, businessError('20000', 'Service Currently Unavailable', 'isp.unknow-error', '系统繁忙'))
      if (!trade || !trade.opened) return respond(res, method, missing())
      return respond(res, method, {
        code: '10000',
        msg: 'Success',
        out_trade_no: trade.outTradeNo,
        trade_no: trade.tradeNo,
        trade_status: trade.status,
        total_amount: trade.totalAmount,
        buyer_pay_amount: trade.status === 'TRADE_SUCCESS' ? trade.totalAmount : '0.00',
        send_pay_date: trade.gmtPayment,
      })
    }
    if (method === 'alipay.trade.close') {
      if (!trade || !trade.opened) return respond(res, method, missing())
      if (trade.status !== 'WAIT_BUYER_PAY') return respond(res, method, businessError('40004', 'Business Failed', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法'))
      trade.status = 'TRADE_CLOSED'
      return respond(res, method, { code: '10000', msg: 'Success', out_trade_no: outTradeNo })
    }
    if (method === 'alipay.trade.refund') {
      if (!trade || trade.status !== 'TRADE_SUCCESS')
        return respond(res, method, businessError('40004', 'Business Failed', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法'))
      if (String(biz.refund_amount) !== trade.totalAmount)
        return respond(res, method, businessError('40004', 'Business Failed', 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限'))
      const requestNo = String(biz.out_request_no ?? '')
      if (settings.refundAnswer === 'busy') return respond(res, method, businessError('20000', 'Service Currently Unavailable', 'isp.unknow-error', '系统繁忙'))
      if (settings.refundAnswer === 'closed') return respond(res, method, businessError('40004', 'Business Failed', 'ACQ.TRADE_HAS_CLOSE', '交易已经关闭'))
      if (settings.refundAnswer === 'accepted' && !trade.refunded.includes(requestNo))
        return respond(res, method, { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_no: trade.tradeNo, refund_fee: '0.00', fund_change: 'N' })
      const first = !trade.refunded.includes(requestNo)
      if (first) trade.refunded.push(requestNo)
      if (settings.refundAnswer === 'lost') return void res.socket?.destroy()
      return respond(res, method, {
        code: '10000',
        msg: 'Success',
        out_trade_no: outTradeNo,
        trade_no: trade.tradeNo,
        refund_fee: trade.totalAmount,
        fund_change: first ? 'Y' : 'N',
      })
    }
    if (method === 'alipay.trade.fastpay.refund.query') {
      if (!trade) return respond(res, method, missing())
      const requestNo = String(biz.out_request_no ?? '')
      // A refund not made answers success without refund_status, as Alipay does.
      const made = trade.refunded.includes(requestNo)
      return respond(res, method, {
        code: '10000',
        msg: 'Success',
        out_trade_no: outTradeNo,
        trade_no: trade.tradeNo,
        out_request_no: requestNo,
        ...(made ? { total_amount: trade.totalAmount, refund_amount: trade.totalAmount, refund_status: 'REFUND_SUCCESS' } : {}),
      })
    }
    return respond(res, method || 'error', businessError('40004', 'Business Failed', 'isv.invalid-method', `不支持的方法 ${method}`))
  })

  return {
    url: server.url,
    gateway: `${server.url}/gateway.do`,
    keys,
    calls,
    trades,
    sent,
    settings,
    pay,
    refundInPlatform,
    notificationFor,
    deliver,
    close: server.close,
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
