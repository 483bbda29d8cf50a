import 'server-only'
import { AppError } from '@/lib/http/app-error'
import { alipayClient } from './alipay/client'
import type { AlipayMerchant, WechatMerchant } from './merchants'
import { alipayTime, centsToYuanString, wechatTime } from './out-trade-no'
import { wechatClient, type WxAnswer } from './wechat/client'

/** What the page needs to pay (the issue's `payment`): raw provider strings, never our secrets. */
export type PaymentInstructions = {
  codeUrl?: string
  jsapi?: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string }
  h5Url?: string
  alipayUrl?: string
  qrCode?: string
}

export type PrepayOrder = { outTradeNo: string; subject: string; amount: number; expiresAt: Date }

const upstreamError = (provider: string, detail: string) => new AppError('SERVICE_UNAVAILABLE', `${provider}下单失败：${detail}`)

function wechatFailure(answer: WxAnswer): string {
  const data = answer.data as { message?: string; code?: string } | undefined
  return data?.message ?? answer.error ?? `HTTP ${answer.status}`
}

export async function prepayWechat(
  merchant: WechatMerchant,
  order: PrepayOrder,
  tradeType: 'JSAPI' | 'NATIVE' | 'MWEB',
  context: { openid?: string | null; clientIp: string; returnUrl: string },
): Promise<PaymentInstructions> {
  const pay = wechatClient(merchant)
  const common = {
    description: order.subject.slice(0, 127),
    out_trade_no: order.outTradeNo,
    notify_url: merchant.notifyUrl,
    time_expire: wechatTime(order.expiresAt),
    amount: { total: order.amount, currency: 'CNY' },
  }
  if (tradeType === 'NATIVE') {
    const answer = (await pay.transactions_native(common)) as WxAnswer
    const codeUrl = answer.status === 200 ? answer.data?.code_url : undefined
    if (typeof codeUrl !== 'string') throw upstreamError('微信支付', wechatFailure(answer))
    return { codeUrl }
  }
  if (tradeType === 'JSAPI') {
    if (!context.openid) throw new AppError('BAD_REQUEST', '请先在微信中登录本站（绑定微信）后再使用微信支付')
    const answer = (await pay.transactions_jsapi({ ...common, payer: { openid: context.openid } })) as WxAnswer
    const bridge = answer.data as PaymentInstructions['jsapi'] | undefined
    if (answer.status !== 200 || !bridge?.paySign) throw upstreamError('微信支付', wechatFailure(answer))
    return { jsapi: bridge }
  }
  // The library's types ask for h5_info.app_name, which WeChat needs only for the iOS and Android types.
  const h5 = { ...common, scene_info: { payer_client_ip: context.clientIp, h5_info: { type: 'Wap' } } } as unknown as Parameters<typeof pay.transactions_h5>[0]
  const answer = (await pay.transactions_h5(h5)) as WxAnswer
  const h5Url = answer.status === 200 ? answer.data?.h5_url : undefined
  if (typeof h5Url !== 'string') throw upstreamError('微信支付', wechatFailure(answer))
  // WeChat sends the browser back here after the cashier (a hint only: the page then asks the server).
  return { h5Url: `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(context.returnUrl)}` }
}

export async function prepayAlipay(
  merchant: AlipayMerchant,
  order: PrepayOrder,
  method: 'page' | 'wap' | 'qr',
  context: { returnUrl: string },
): Promise<PaymentInstructions> {
  const sdk = alipayClient(merchant)
  const biz = {
    outTradeNo: order.outTradeNo,
    totalAmount: centsToYuanString(order.amount),
    subject: order.subject.slice(0, 256),
    timeExpire: alipayTime(order.expiresAt),
  }
  if (method === 'qr') {
    let result: Record<string, unknown>
    try {
      result = (await sdk.exec('alipay.trade.precreate', { bizContent: biz, notifyUrl: merchant.notifyUrl }, { validateSign: true })) as Record<string, unknown>
    } catch (error) {
      throw upstreamError('支付宝', (error as Error).message)
    }
    if (result.code !== '10000' || typeof result.qrCode !== 'string') throw upstreamError('支付宝', String(result.subMsg ?? result.msg ?? '未知错误'))
    return { qrCode: result.qrCode }
  }
  const product = method === 'page' ? { productCode: 'FAST_INSTANT_TRADE_PAY' } : { productCode: 'QUICK_WAP_WAY', quitUrl: context.returnUrl }
  const alipayUrl = sdk.pageExec(method === 'page' ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay', 'GET', {
    bizContent: { ...biz, ...product },
    notifyUrl: merchant.notifyUrl,
    returnUrl: context.returnUrl,
  })
  return { alipayUrl }
}
