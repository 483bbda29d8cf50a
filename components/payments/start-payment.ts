'use client'

import type { CreatedOrder, JsapiParams } from '@/lib/api-client/resources/orders'

type BridgeResult = { err_msg?: string }
type WeixinJSBridge = { invoke: (name: string, params: JsapiParams, callback: (res: BridgeResult) => void) => void }

declare global {
  interface Window {
    WeixinJSBridge?: WeixinJSBridge
  }
}

/** docs/PRODUCT.md §5: anything but this answer from the bridge is 支付失败. */
export const JSAPI_OK = 'get_brand_wcpay_request:ok'
export const MSG_PAY_FAILED = '支付失败'

function bridgeReady(): Promise<WeixinJSBridge | null> {
  if (window.WeixinJSBridge) return Promise.resolve(window.WeixinJSBridge)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(window.WeixinJSBridge ?? null), 3000)
    document.addEventListener(
      'WeixinJSBridgeReady',
      () => {
        clearTimeout(timer)
        resolve(window.WeixinJSBridge ?? null)
      },
      { once: true },
    )
  })
}

/** Opens WeChat's pay sheet; true when the bridge answered ok, otherwise the 支付失败 alert has been shown. */
export async function payInWechat(params: JsapiParams): Promise<boolean> {
  const bridge = await bridgeReady()
  const ok = bridge
    ? await new Promise<boolean>((resolve) => bridge.invoke('getBrandWCPayRequest', params, (res) => resolve(res?.err_msg === JSAPI_OK)))
    : false
  if (!ok) window.alert(MSG_PAY_FAILED)
  return ok
}

/**
 * What the page does with a new order's payment: 'redirect' when it leaves for the provider
 * (Alipay page/wap pay, WeChat H5), 'show' when the dialog goes on (a QR code, the WeChat
 * sheet's outcome, a balance order that is already paid).
 */
export async function startPayment({ payment }: CreatedOrder): Promise<'redirect' | 'show'> {
  const away = payment.alipayUrl ?? payment.h5Url
  if (away) {
    window.location.assign(away)
    return 'redirect'
  }
  if (payment.jsapi) await payInWechat(payment.jsapi)
  return 'show'
}
