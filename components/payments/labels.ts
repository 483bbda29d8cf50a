import type { OrderStatus, OrderType, PayChannel } from '@/lib/api-client/resources/orders'
import type { ProductType } from '@/lib/api-client/resources/products'

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = { SUCCESS: '成功', FAIL: '失败', PENDING: '待支付', CANCELED: '已取消' }

export const ORDER_STATUS_TONES = { SUCCESS: 'green', FAIL: 'red', PENDING: 'amber', CANCELED: 'zinc' } as const

export const CHANNEL_LABELS: Record<PayChannel, string> = { WECHAT: '微信支付', ALIPAY: '支付宝', BALANCE: '余额' }

export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = { BALANCE: '余额充值', POINTS: '积分包', MEMBERSHIP: '会员', CHAT_MEMBERSHIP: '对话会员' }

export const ORDER_TYPE_LABELS: Record<OrderType, string> = {
  ...PRODUCT_TYPE_LABELS,
  BUY_VIDEO_MATERIAL: '购买视频素材',
  BATCH_BUY_VIDEO_MATERIAL: '批量购买视频素材',
}

export const TRADE_TYPE_LABELS: Record<string, string> = { JSAPI: '公众号', NATIVE: '扫码', MWEB: 'H5', APP: 'APP', page: '网页', wap: '手机网页', qr: '扫码' }
