import type { MembershipKind, OrderType } from '@/lib/generated/prisma/enums'
import { badRequest } from '@/lib/http/app-error'
import { formatCents } from '@/lib/format'

/** What fulfilling an order gives, fixed when the order is made (Order.grant). */
export type OrderGrant = {
  points?: number
  /** Cents credited to the balance. */
  balance?: number
  days?: number
  membership?: MembershipKind
  planName?: string
  dailyPoints?: number | null
  discountPercent?: number | null
  dailyMessages?: number | null
  videoIds?: string[]
  /** Cents paid for each of videoIds, in the same order. */
  videoPrices?: number[]
}

export type SellableProduct = {
  id: number
  type: OrderType
  name: string
  price: number
  points: number | null
  balance: number | null
  days: number | null
  dailyPoints: number | null
  discountPercent: number | null
  dailyMessages: number | null
}

export type Purchase = { subject: string; amount: number; grant: OrderGrant; productId: number | null }

/** A product as an order: its price and what it gives. */
export function purchaseOfProduct(product: SellableProduct): Purchase {
  const base = { subject: product.name, amount: product.price, productId: product.id }
  switch (product.type) {
    case 'BALANCE':
      return { ...base, grant: { balance: product.balance ?? product.price } }
    case 'POINTS':
      if (!product.points) throw badRequest('该积分包未设置积分数量')
      return { ...base, grant: { points: product.points } }
    case 'MEMBERSHIP':
    case 'CHAT_MEMBERSHIP':
      if (!product.days) throw badRequest('该会员套餐未设置天数')
      return {
        ...base,
        grant: {
          days: product.days,
          membership: product.type === 'MEMBERSHIP' ? 'IMAGE' : 'CHAT',
          planName: product.name,
          ...(product.points ? { points: product.points } : {}),
          dailyPoints: product.dailyPoints,
          discountPercent: product.discountPercent,
          dailyMessages: product.dailyMessages,
        },
      }
    default:
      throw badRequest('该商品类型不能直接购买')
  }
}

/** A balance recharge of an amount the user typed, within the operator's limits. */
export function purchaseOfCustomRecharge(amount: number, limits: { min: number; max: number }): Purchase {
  if (limits.max === 0) throw badRequest('本站不支持自定义充值金额，请选择充值档位')
  if (amount < limits.min || amount > limits.max) throw badRequest(`充值金额须在 ${formatCents(limits.min)} 元到 ${formatCents(limits.max)} 元之间`)
  return { subject: `余额充值 ${formatCents(amount)} 元`, amount, grant: { balance: amount }, productId: null }
}
