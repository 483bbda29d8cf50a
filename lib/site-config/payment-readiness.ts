import { badRequest } from '@/lib/http/app-error'
import { findDefinition } from './registry'
import type { ConfigValue } from './store'

type Settings = ReadonlyMap<string, unknown>

const WXPAY_REQUIRED = ['WXPAY_APP_ID', 'WXPAY_MCH_ID', 'WXPAY_MCH_SERIAL_NO', 'WXPAY_MCH_PRIVATE_KEY', 'WXPAY_API_V3_KEY'] as const
const ALIPAY_REQUIRED = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const
export const PAYMENT_SWITCHES = { WXPAY_ENABLED: 'wechat', ALIPAY_ENABLED: 'alipay' } as const
export type PaymentProvider = (typeof PAYMENT_SWITCHES)[keyof typeof PAYMENT_SWITCHES]

const filled = (values: Settings, name: string) => String(values.get(name) ?? '').trim() !== ''

/** The settings a provider still lacks (empty when it can take payments). */
export function missingPaymentSettings(provider: PaymentProvider, values: Settings): string[] {
  const required: readonly string[] = provider === 'wechat' ? WXPAY_REQUIRED : ALIPAY_REQUIRED
  const missing = required.filter((name) => !filled(values, name))
  if (provider === 'wechat' && filled(values, 'WXPAY_PUBLIC_KEY_ID') !== filled(values, 'WXPAY_PUBLIC_KEY')) {
    missing.push(filled(values, 'WXPAY_PUBLIC_KEY') ? 'WXPAY_PUBLIC_KEY_ID' : 'WXPAY_PUBLIC_KEY')
  }
  return missing
}

export function paymentEnabled(provider: PaymentProvider, values: Settings): boolean {
  const name = provider === 'wechat' ? 'WXPAY_ENABLED' : 'ALIPAY_ENABLED'
  return values.get(name) === true && missingPaymentSettings(provider, values).length === 0
}

/** A payment switch turns on only when its merchant settings are complete. */
export function assertPaymentSwitchUsable(name: string, next: ConfigValue, current: Settings): void {
  const provider = (PAYMENT_SWITCHES as Record<string, PaymentProvider | undefined>)[name]
  if (!provider || next !== true) return
  const missing = missingPaymentSettings(provider, current)
  if (!missing.length) return
  const labels = missing.map((n) => `“${findDefinition(n)?.label ?? n}”`).join('、')
  throw badRequest(`无法开启${provider === 'wechat' ? '微信支付' : '支付宝'}：请先填写 ${labels}`)
}

/** A custom recharge's least amount stays at or under its largest, unless custom amounts are off (largest 0). */
export function assertRechargeRange(name: string, next: ConfigValue, current: Settings): void {
  if (name !== 'RECHARGE_MIN_CENTS' && name !== 'RECHARGE_MAX_CENTS') return
  const min = Number(name === 'RECHARGE_MIN_CENTS' ? next : current.get('RECHARGE_MIN_CENTS'))
  const max = Number(name === 'RECHARGE_MAX_CENTS' ? next : current.get('RECHARGE_MAX_CENTS'))
  if (max !== 0 && min > max) throw badRequest(`自定义充值最小金额（${min} 分）不能大于最大金额（${max} 分）`)
}
