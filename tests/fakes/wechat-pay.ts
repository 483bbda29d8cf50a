// A fake WeChat Pay API v3 (api.mch.weixin.qq.com, docs/PROTOCOLS.md §9). It checks each
// request's WECHATPAY2-SHA256-RSA2048 Authorization with the merchant's public key, signs
// its answers with the platform key (微信支付公钥 mode: the serial is a PUB_KEY_ID_), and
// sends payment notifications encrypted with the APIv3 key (AEAD_AES_256_GCM) and signed
// over `timestamp\nnonce\nbody\n`. Tests pay orders through it and can lose, delay,
// duplicate, reorder or tamper with the notifications.
import { execFileSync } from 'node:child_process'
import {
  X509Certificate,
  createCipheriv,
  createHash,
  createPrivateKey,
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  type KeyObject,
} from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type http from 'node:http'
import { jsonBody, record, sendJson, sendText, startServer, type RecordedRequest } from './common'

export type WechatPayKeys = {
  mchId: string
  appId: string
  /** The merchant API certificate's serial and private key (ours), and the public key the fake checks with. */
  mchSerialNo: string
  mchPrivateKeyPem: string
  mchPublicKey: KeyObject
  apiV3Key: string
  /** The platform's public key (微信支付公钥) and its id, given to the site; the fake signs with the private half. */
  publicKeyId: string
  publicKeyPem: string
  platformPrivateKey: KeyObject
}

export function makeWechatPayKeys(): WechatPayKeys {
  const mch = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    mchId: '1900000109',
    appId: 'wx' + randomBytes(8).toString('hex'),
    mchSerialNo: randomBytes(20).toString('hex').toUpperCase(),
    mchPrivateKeyPem: mch.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    mchPublicKey: mch.publicKey,
    apiV3Key: randomBytes(16).toString('hex'),
    publicKeyId: 'PUB_KEY_ID_0119000001092024' + randomBytes(4).toString('hex').toUpperCase(),
    publicKeyPem: platform.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    platformPrivateKey: platform.privateKey,
  }
}

export type FakeTradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND'

export type FakeWechatOrder = {
  outTradeNo: string
  tradeType: 'JSAPI' | 'NATIVE' | 'MWEB' | 'APP'
  appid: string
  mchid: string
  description: string
  notifyUrl: string
  total: number
  timeExpire?: string
  openid?: string
  state: FakeTradeState
  transactionId?: string
  successTime?: string
  prepayId: string
  /** The body of the first create call, to tell a repeat from a conflicting reuse. */
  createdWith: string
  refunds: { outRefundNo: string; amount: number; processing?: boolean }[]
}

export type WechatNotification = { headers: Record<string, string>; body: string }

/** A platform certificate (the older mode): the fake signs with its key and serves it at /v3/certificates. */
export type PlatformCertificate = { serialNo: string; certPem: string; privateKey: KeyObject }

/** A self-signed certificate made with the openssl command (Node cannot issue X.509 certificates). */
export function makePlatformCertificate(): PlatformCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'wxcert-'))
  try {
    const key = path.join(dir, 'key.pem')
    const cert = path.join(dir, 'cert.pem')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=Tenpay.com Root CA'], {
      stdio: 'ignore',
    })
    const certPem = readFileSync(cert, 'utf8')
    return { serialNo: new X509Certificate(certPem).serialNumber.toUpperCase(), certPem, privateKey: createPrivateKey(readFileSync(key, 'utf8')) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What a test asks POST /__control/notification for: the order's notification, optionally altered before signing. */
export type ControlNotification = {
  out_trade_no: string
  /** The transaction's amount.total, mchid, appid or out_trade_no instead of the order's. */
  total?: number
  mchid?: string
  appid?: string
  claimed_out_trade_no?: string
  /** Signed this many seconds ago. */
  age_seconds?: number
  /** The ciphertext's GCM tag corrupted, the body still signed correctly. */
  break_tag?: boolean
}

export type FakeWechatPayOptions = {
  keys: WechatPayKeys
  /** Sign with a platform certificate instead of the 微信支付公钥. */
  certificate?: PlatformCertificate
  /** Delay before each automatic notification (ms). */
  notifyDelayMs?: number
  /** Send no notification when an order is paid (a lost notification). */
  loseNotifications?: boolean
  /** Send each notification this many times at once (WeChat's duplicate deliveries). */
  duplicate?: number
}

const SCHEMA = 'WECHATPAY2-SHA256-RSA2048'
const OUT_TRADE_NO = /^[0-9A-Za-z_\-|*]{6,32}$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/

/** WeChat's time format: RFC 3339 with the +08:00 offset. */
export function beijingTime(date = new Date()): string {
  const shifted = new Date(date.getTime() + 8 * 3600_000)
  return shifted.toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

export type FakeWechatPay = Awaited<ReturnType<typeof startFakeWechatPay>>

export async function startFakeWechatPay(options: FakeWechatPayOptions) {
  const { keys } = options
  const calls: RecordedRequest[] = []
  const orders = new Map<string, FakeWechatOrder>()
  const sent: { outTradeNo: string; status: number }[] = []
  const settings = {
    loseNotifications: options.loseNotifications ?? false,
    notifyDelayMs: options.notifyDelayMs ?? 0,
    duplicate: options.duplicate ?? 1,
    /** How a refund is answered: as made; PROCESSING (made later, when asked again); or made with its answer lost (the connection cut). */
    refundAnswer: 'made' as 'made' | 'processing' | 'lost',
    /** Asking for a refund answers this error, whatever was refunded before (the refund query still answers). */
    refundRefusal: null as { status: number; code: string; message: string } | null,
    /** The next refund request waits for this before WeChat takes it (a slow answer); one request only. */
    refundHeld: null as Promise<void> | null,
  }
  /** Answer every request with this error instead (an outage). */
  let failWith: { status: number; code: string; message: string } | null = null
  let certificateDownloads = 0

  const signingKey = options.certificate?.privateKey ?? keys.platformPrivateKey
  const signingSerial = options.certificate?.serialNo ?? keys.publicKeyId

  const signAnswer = (body: string): Record<string, string> => {
    const timestamp = String(Math.floor(Date.now() / 1000))
    const nonce = randomBytes(16).toString('hex')
    return {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': signingSerial,
      'wechatpay-signature': sign(signingKey, `${timestamp}\n${nonce}\n${body}\n`),
      'wechatpay-signature-type': SCHEMA,
      'request-id': randomUUID(),
    }
  }
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    if (status === 204) {
      res.writeHead(204, signAnswer(''))
      res.end()
      return
    }
    const text = JSON.stringify(body)
    sendJson(res, status, body, signAnswer(text))
  }
  const error = (res: http.ServerResponse, status: number, code: string, message: string) => answer(res, status, { code, message })

  /** The merchant's request signature: `METHOD\nPATH?QUERY\ntimestamp\nnonce\nbody\n`. */
  const authorized = (req: http.IncomingMessage, url: URL, raw: Buffer): string | null => {
    const header = req.headers.authorization ?? ''
    if (!header.startsWith(SCHEMA + ' ')) return '缺少或错误的认证类型'
    const fields = Object.fromEntries([...header.slice(SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    if (fields.mchid !== keys.mchId) return 'mchid 不匹配'
    if (fields.serial_no !== keys.mchSerialNo) return '商户证书序列号不匹配'
    if (!fields.timestamp || Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300) return '时间戳过期'
    const message = `${req.method}\n${url.pathname}${url.search}\n${fields.timestamp}\n${fields.nonce_str}\n${raw.toString('utf8')}\n`
    const verifier = createVerify('RSA-SHA256')
    verifier.update(message)
    return verifier.verify(keys.mchPublicKey, fields.signature ?? '', 'base64') ? null : '签名错误'
  }

  const transaction = (order: FakeWechatOrder) => ({
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.outTradeNo,
    transaction_id: order.transactionId,
    trade_type: order.tradeType,
    trade_state: order.state,
    trade_state_desc: { NOTPAY: '订单未支付', SUCCESS: '支付成功', CLOSED: '订单已关闭', REFUND: '转入退款' }[order.state],
    bank_type: order.state === 'SUCCESS' || order.state === 'REFUND' ? 'OTHERS' : undefined,
    attach: '',
    success_time: order.successTime,
    payer: { openid: order.openid ?? 'o' + randomBytes(12).toString('hex') },
    amount: { total: order.total, payer_total: order.total, currency: 'CNY', payer_currency: 'CNY' },
  })

  /**
   * A notification for the order as WeChat would send it; `change` alters the decrypted transaction,
   * `breakTag` flips the last byte of the ciphertext (its GCM tag) before the body is signed.
   */
  const notificationFor = (
    outTradeNo: string,
    change: (t: Record<string, unknown>) => void = () => {},
    at = new Date(),
    options: { breakTag?: boolean } = {},
  ): WechatNotification => {
    const order = orders.get(outTradeNo)
    const plain: Record<string, unknown> = order
      ? transaction(order)
      : { appid: keys.appId, mchid: keys.mchId, out_trade_no: outTradeNo, trade_state: 'SUCCESS', amount: { total: 1, currency: 'CNY' } }
    change(plain)
    const nonce = randomBytes(6).toString('hex')
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(keys.apiV3Key), Buffer.from(nonce))
    cipher.setAAD(Buffer.from('transaction'))
    const sealed = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final(), cipher.getAuthTag()])
    if (options.breakTag) sealed[sealed.length - 1]! ^= 0xff
    const ciphertext = sealed.toString('base64')
    const body = JSON.stringify({
      id: randomUUID(),
      create_time: beijingTime(at),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce },
    })
    const timestamp = String(Math.floor(at.getTime() / 1000))
    const headerNonce = randomBytes(16).toString('hex')
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': headerNonce,
        'wechatpay-serial': signingSerial,
        'wechatpay-signature': sign(signingKey, `${timestamp}\n${headerNonce}\n${body}\n`),
        'wechatpay-signature-type': SCHEMA,
      },
    }
  }

  /** POSTs a notification to the order's notify_url (or `url`) and returns the HTTP status. */
  const deliver = async (outTradeNo: string, notification: WechatNotification, url?: string): Promise<number> => {
    const target = url ?? orders.get(outTradeNo)?.notifyUrl
    if (!target) throw new Error(`no notify_url for ${outTradeNo}`)
    const res = await fetch(target, { method: 'POST', headers: notification.headers, body: notification.body })
    await res.arrayBuffer()
    sent.push({ outTradeNo, status: res.status })
    return res.status
  }

  const notifyPaid = async (order: FakeWechatOrder) => {
    if (settings.loseNotifications) return
    if (settings.notifyDelayMs) await new Promise((r) => setTimeout(r, settings.notifyDelayMs))
    const n = notificationFor(order.outTradeNo)
    await Promise.all(Array.from({ length: settings.duplicate }, () => deliver(order.outTradeNo, n).catch(() => 0)))
  }

  /**
   * The buyer pays: the order becomes SUCCESS and (unless lost) its notification is sent.
   * `reopen` pays an order closed meanwhile (the buyer had scanned before the close and WeChat
   * took the money anyway).
   */
  const pay = async (outTradeNo: string, opts: { notify?: boolean; reopen?: boolean } = {}): Promise<FakeWechatOrder> => {
    const order = orders.get(outTradeNo)
    if (!order) throw new Error(`unknown order ${outTradeNo}`)
    if (opts.reopen && order.state === 'CLOSED') order.state = 'NOTPAY'
    if (order.state === 'NOTPAY') {
      order.state = 'SUCCESS'
      order.transactionId = '4200' + Date.now().toString().slice(-10) + randomBytes(5).toString('hex').slice(0, 8)
      order.successTime = beijingTime()
    }
    if (opts.notify !== false) await notifyPaid(order)
    return order
  }

  const create = (tradeType: FakeWechatOrder['tradeType'], body: Record<string, unknown>, raw: string, res: http.ServerResponse) => {
    const amount = body.amount as { total?: unknown; currency?: unknown } | undefined
    const outTradeNo = String(body.out_trade_no ?? '')
    if (body.mchid !== keys.mchId) return error(res, 400, 'PARAM_ERROR', 'mchid 与请求头不一致')
    if (body.appid !== keys.appId) return error(res, 400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配')
    if (!OUT_TRADE_NO.test(outTradeNo)) return error(res, 400, 'PARAM_ERROR', '输入源“/body/out_trade_no”映射到字段“商户订单号”必填性规则校验失败')
    if (typeof body.description !== 'string' || !body.description || body.description.length > 127) return error(res, 400, 'PARAM_ERROR', 'description 不合法')
    if (typeof body.notify_url !== 'string' || !/^https?:\/\/[^?]+$/.test(body.notify_url) || body.notify_url.length > 255)
      return error(res, 400, 'PARAM_ERROR', 'notify_url 不合法')
    if (!amount || !Number.isInteger(amount.total) || (amount.total as number) < 1) return error(res, 400, 'PARAM_ERROR', 'amount.total 必须为正整数（分）')
    if (body.time_expire !== undefined && (typeof body.time_expire !== 'string' || !RFC3339.test(body.time_expire)))
      return error(res, 400, 'PARAM_ERROR', 'time_expire 格式错误')
    const payer = body.payer as { openid?: unknown } | undefined
    if (tradeType === 'JSAPI' && typeof payer?.openid !== 'string') return error(res, 400, 'PARAM_ERROR', 'JSAPI 支付缺少 payer.openid')
    const scene = body.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined
    if (tradeType === 'MWEB' && (typeof scene?.payer_client_ip !== 'string' || typeof scene.h5_info?.type !== 'string'))
      return error(res, 400, 'PARAM_ERROR', 'H5 支付缺少 scene_info')

    const existing = orders.get(outTradeNo)
    if (existing && existing.createdWith !== stableRequest(raw)) return error(res, 400, 'INVALID_REQUEST', '201 商户订单号重复')
    if (existing && existing.state !== 'NOTPAY') return error(res, 400, 'ORDERPAID', '该订单已支付或已关闭')
    const order: FakeWechatOrder = existing ?? {
      outTradeNo,
      tradeType,
      appid: keys.appId,
      mchid: keys.mchId,
      description: body.description,
      notifyUrl: body.notify_url,
      total: amount.total as number,
      timeExpire: body.time_expire as string | undefined,
      openid: payer?.openid as string | undefined,
      state: 'NOTPAY',
      prepayId: 'wx' + Date.now() + randomBytes(6).toString('hex'),
      createdWith: stableRequest(raw),
      refunds: [],
    }
    orders.set(outTradeNo, order)
    if (tradeType === 'NATIVE') return answer(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${order.prepayId.slice(-10)}` })
    if (tradeType === 'MWEB') return answer(res, 200, { h5_url: `${server.url}/h5pay?prepay_id=${order.prepayId}&out_trade_no=${outTradeNo}` })
    return answer(res, 200, { prepay_id: order.prepayId })
  }

  const server = await startServer(async (req, res, url, raw) => {
    const body = jsonBody(raw) as Record<string, unknown> | null
    record(calls, req, url, body)
    const path = url.pathname

    // Control routes for tests (the e2e browser's "buyer").
    if (path === '/__control/pay' && req.method === 'POST') {
      const outTradeNo = String(body?.out_trade_no ?? '')
      if (!orders.has(outTradeNo)) return sendJson(res, 404, { error: 'ORDER_NOT_EXIST' })
      const order = await pay(outTradeNo, { notify: body?.notify !== false, reopen: body?.reopen === true })
      return sendJson(res, 200, { state: order.state })
    }
    if (path === '/__control/refund-answer' && req.method === 'POST') {
      settings.refundAnswer = body?.answer === 'processing' || body?.answer === 'lost' ? body.answer : 'made'
      return sendJson(res, 200, { refundAnswer: settings.refundAnswer })
    }
    if (path === '/__control/order' && req.method === 'GET') {
      const order = orders.get(url.searchParams.get('out_trade_no') ?? '')
      return order ? sendJson(res, 200, { state: order.state, total: order.total }) : sendJson(res, 404, { error: 'ORDER_NOT_EXIST' })
    }
    // The notification WeChat would send for an order, signed and encrypted here, for a test to deliver
    // itself (as is, replayed, or altered: ControlNotification says how).
    if (path === '/__control/notification' && req.method === 'POST') {
      const ask = (body ?? {}) as ControlNotification
      const n = notificationFor(
        ask.out_trade_no,
        (t) => {
          if (ask.total !== undefined) (t.amount as { total: number }).total = ask.total
          if (ask.mchid !== undefined) t.mchid = ask.mchid
          if (ask.appid !== undefined) t.appid = ask.appid
          if (ask.claimed_out_trade_no !== undefined) t.out_trade_no = ask.claimed_out_trade_no
        },
        new Date(Date.now() - (ask.age_seconds ?? 0) * 1000),
        { breakTag: ask.break_tag },
      )
      return sendJson(res, 200, n)
    }
    if (path === '/h5pay' && req.method === 'GET') {
      const redirect = url.searchParams.get('redirect_url') ?? ''
      return sendText(
        res,
        200,
        `<!doctype html><meta charset="utf-8"><title>微信支付</title><form method="post" action="/h5pay/confirm"><input type="hidden" name="out_trade_no" value="${escape(url.searchParams.get('out_trade_no') ?? '')}"><input type="hidden" name="redirect_url" value="${escape(redirect)}"><button type="submit">确认付款</button></form>`,
      )
    }
    if (path === '/h5pay/confirm' && req.method === 'POST') {
      const form = new URLSearchParams(raw.toString('utf8'))
      await pay(form.get('out_trade_no') ?? '')
      res.writeHead(302, { location: form.get('redirect_url') || '/' })
      return res.end()
    }

    if (failWith) return error(res, failWith.status, failWith.code, failWith.message)
    const refusal = authorized(req, url, raw)
    if (refusal) return error(res, 401, 'SIGN_ERROR', refusal)

    if (path === '/v3/certificates' && req.method === 'GET') {
      if (!options.certificate) return error(res, 404, 'NOT_FOUND', '该商户已使用微信支付公钥')
      const nonce = randomBytes(6).toString('hex')
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(keys.apiV3Key), Buffer.from(nonce))
      cipher.setAAD(Buffer.from('certificate'))
      const ciphertext = Buffer.concat([cipher.update(options.certificate.certPem, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64')
      certificateDownloads++
      return answer(res, 200, {
        data: [
          {
            serial_no: options.certificate.serialNo,
            effective_time: beijingTime(),
            expire_time: beijingTime(new Date(Date.now() + 86_400_000)),
            encrypt_certificate: { algorithm: 'AEAD_AES_256_GCM', nonce, associated_data: 'certificate', ciphertext },
          },
        ],
      })
    }
    const created = /^\/v3\/pay\/transactions\/(jsapi|native|h5|app)$/.exec(path)
    if (created && req.method === 'POST') {
      const tradeType = ({ jsapi: 'JSAPI', native: 'NATIVE', h5: 'MWEB', app: 'APP' } as const)[created[1] as 'jsapi']
      return create(tradeType, body ?? {}, raw.toString('utf8'), res)
    }
    const queried = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path)
    if (queried && req.method === 'GET') {
      if (url.searchParams.get('mchid') !== keys.mchId) return error(res, 400, 'PARAM_ERROR', 'mchid 不正确')
      const order = orders.get(decodeURIComponent(queried[1] ?? ''))
      if (!order) return error(res, 404, 'ORDER_NOT_EXIST', '订单不存在')
      return answer(res, 200, transaction(order))
    }
    const closed = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path)
    if (closed && req.method === 'POST') {
      const order = orders.get(decodeURIComponent(closed[1] ?? ''))
      if (!order) return error(res, 404, 'ORDER_NOT_EXIST', '订单不存在')
      if (order.state === 'SUCCESS' || order.state === 'REFUND') return error(res, 400, 'ORDERPAID', '订单已支付')
      order.state = 'CLOSED'
      return answer(res, 204, null)
    }
    if (path === '/v3/refund/domestic/refunds' && req.method === 'POST') {
      const held = settings.refundHeld
      settings.refundHeld = null
      if (held) await held
      const refusal = settings.refundRefusal
      if (refusal) return error(res, refusal.status, refusal.code, refusal.message)
      const order = orders.get(String(body?.out_trade_no ?? ''))
      const amount = body?.amount as { refund?: number; total?: number } | undefined
      if (!order || (order.state !== 'SUCCESS' && order.state !== 'REFUND')) return error(res, 400, 'RESOURCE_NOT_EXISTS', '订单不存在或未支付')
      if (amount?.total !== order.total || !amount.refund || amount.refund > order.total) return error(res, 400, 'PARAM_ERROR', '退款金额不正确')
      const outRefundNo = String(body?.out_refund_no ?? '')
      const known = order.refunds.find((r) => r.outRefundNo === outRefundNo)
      // The same out_refund_no again answers that refund; a new one must fit in what is left.
      if (!known && order.refunds.reduce((sum, r) => sum + r.amount, 0) + amount.refund > order.total)
        return error(res, 400, 'INVALID_REQUEST', '订单已全额退款')
      if (settings.refundAnswer === 'processing' && !known) {
        const refund = { outRefundNo, amount: amount.refund, processing: true }
        order.refunds.push(refund)
        return answer(res, 200, refundView(order, refund))
      }
      const refund = known ?? { outRefundNo, amount: amount.refund }
      if (known) known.processing = false
      else order.refunds.push(refund)
      order.state = 'REFUND'
      if (settings.refundAnswer === 'lost') return void res.socket?.destroy()
      return answer(res, 200, refundView(order, refund))
    }
    const refundQueried = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path)
    if (refundQueried && req.method === 'GET') {
      const outRefundNo = decodeURIComponent(refundQueried[1] ?? '')
      for (const order of orders.values()) {
        const refund = order.refunds.find((r) => r.outRefundNo === outRefundNo)
        if (refund) return answer(res, 200, refundView(order, refund))
      }
      return error(res, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在')
    }
    return error(res, 404, 'NOT_FOUND', `no route ${req.method} ${path}`)
  })

  return {
    url: server.url,
    keys,
    calls,
    orders,
    sent,
    settings,
    /** How many times /v3/certificates was downloaded. */
    certificateDownloads: () => certificateDownloads,
    pay,
    /** The merchant refunds a paid order in the merchant platform (商户平台), not through the site: its query answers REFUND. */
    refundInPlatform(outTradeNo: string) {
      const order = orders.get(outTradeNo)
      if (order?.state !== 'SUCCESS') throw new Error(`${outTradeNo} is not paid`)
      order.refunds.push({ outRefundNo: 'MCH' + randomBytes(8).toString('hex'), amount: order.total })
      order.state = 'REFUND'
    },
    notificationFor,
    deliver,
    /** Every request answers this error (or null to recover). */
    failAll(value: { status: number; code: string; message: string } | null) {
      failWith = value
    },
    close: server.close,
  }
}

/** A refund as WeChat Pay answers it, asked for or queried. */
function refundView(order: FakeWechatOrder, refund: FakeWechatOrder['refunds'][number]) {
  return {
    refund_id: `5030${createHash('sha256').update(refund.outRefundNo).digest('hex').slice(0, 16)}`,
    out_refund_no: refund.outRefundNo,
    out_trade_no: order.outTradeNo,
    status: refund.processing ? 'PROCESSING' : 'SUCCESS',
    amount: { refund: refund.amount, total: order.total, currency: 'CNY' },
  }
}

function sign(key: KeyObject, message: string): string {
  return createSign('RSA-SHA256').update(message).sign(key, 'base64')
}

/** The create body without the fields that may differ between identical repeats. */
function stableRequest(raw: string): string {
  try {
    const { time_expire: _ignored, ...rest } = JSON.parse(raw) as Record<string, unknown>
    return JSON.stringify(rest)
  } catch {
    return raw
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
