import { describe, expect, it } from 'vitest'
import { detectPayEnv, mayHaveOrdered, paymentFields } from '@/components/payments/pay-env'
import { ApiError } from '@/lib/api-client/request'

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN'
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const DESKTOP_WECHAT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0 Safari/537.36 MicroMessenger/7.0.20 WindowsWechat'

describe('detectPayEnv', () => {
  it('tells WeChat, a phone browser and a desktop apart', () => {
    expect(detectPayEnv(WECHAT_UA)).toBe('wechat')
    expect(detectPayEnv(DESKTOP_WECHAT_UA)).toBe('wechat')
    expect(detectPayEnv(PHONE_UA)).toBe('mobile')
    expect(detectPayEnv(DESKTOP_UA)).toBe('desktop')
  })
})

describe('paymentFields', () => {
  it('WeChat: JSAPI inside WeChat, MWEB on a phone, NATIVE on a desktop', () => {
    expect(paymentFields('WECHAT', 'wechat')).toEqual({ tradeType: 'JSAPI' })
    expect(paymentFields('WECHAT', 'mobile')).toEqual({ tradeType: 'MWEB' })
    expect(paymentFields('WECHAT', 'desktop')).toEqual({ tradeType: 'NATIVE' })
  })

  it('Alipay: wap on a phone or in WeChat, QR or page pay on a desktop', () => {
    expect(paymentFields('ALIPAY', 'mobile')).toEqual({ alipayMethod: 'wap' })
    expect(paymentFields('ALIPAY', 'wechat')).toEqual({ alipayMethod: 'wap' })
    expect(paymentFields('ALIPAY', 'desktop')).toEqual({ alipayMethod: 'qr' })
    expect(paymentFields('ALIPAY', 'desktop', 'page')).toEqual({ alipayMethod: 'page' })
  })

  it('balance needs no provider fields', () => {
    expect(paymentFields('BALANCE', 'desktop')).toEqual({})
  })
})

describe('mayHaveOrdered', () => {
  it('keeps the key when the order may exist unseen: no answer, still being made, a proxy gave up', () => {
    for (const status of [0, 409, 502, 504]) expect(mayHaveOrdered(new ApiError('x', status))).toBe(true)
  })

  it('lets the next press be a new order after any other answer', () => {
    for (const status of [400, 401, 402, 403, 404, 500, 503]) expect(mayHaveOrdered(new ApiError('x', status))).toBe(false)
    expect(mayHaveOrdered(new Error('not from the request layer'))).toBe(false)
  })
})
