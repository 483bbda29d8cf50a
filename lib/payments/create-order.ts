import 'server-only'
import { db, type Tx } from '@/lib/db'
import { AppError, badRequest, conflict, serviceUnavailable } from '@/lib/http/app-error'
import { refuseDowngrade } from '@/lib/memberships/downgrade'
import { requestHash } from '@/lib/http/request-hash'
import { postMovement } from '@/lib/ledger/post-movement'
import { safeRedirectPath } from '@/lib/safe-redirect'
import { getConfigValue } from '@/lib/site-config/store'
import { priceVideos, refuseUngiven } from '@/lib/videos/video-purchases'
import { fulfilOrder } from './fulfil-order'
import { alipayMerchant, siteUrl, wechatMerchant } from './merchants'
import { purchaseOfCustomRecharge, purchaseOfProduct, type Purchase } from './order-grant'
import { ORDER_SELECT, type CreatedOrder } from './order-views'
import { newOutTradeNo } from './out-trade-no'
import { prepayAlipay, prepayWechat, type PaymentInstructions } from './prepay'
import type { TCreateOrder } from './schemas'

export type OrderContext = { userId: string; clientIp: string; idempotencyKey?: string }

/** The first active query of a provider order comes this soon (the reconciler backs off from there). */
export const FIRST_QUERY_AFTER_MS = 60_000
const MAKING_MESSAGE = '这笔订单正在创建中，请稍候再试'

/**
 * Makes an order (docs/PRODUCT.md §14). A balance payment is made and paid in one transaction,
 * so without enough balance nothing is left behind. A WeChat or Alipay order is saved first,
 * then prepaid at the provider (never inside a transaction); a refusal there fails the order.
 * One Idempotency-Key makes one order: a repeat gets the first answer, a repeat while the first
 * is still being made gets 409, and the key with another request is refused.
 */
export async function createOrder(ctx: OrderContext, input: TCreateOrder): Promise<CreatedOrder> {
  const hash = requestHash({ ...input, returnPath: undefined })
  if (ctx.idempotencyKey) {
    const earlier = await replay(ctx, hash)
    if (earlier) return earlier
  }
  const purchase = await resolvePurchase(ctx.userId, input)
  const expireMinutes = await getConfigValue<number>('ORDER_EXPIRE_MINUTES')
  const now = new Date()
  const base = {
    outTradeNo: newOutTradeNo(now),
    userId: ctx.userId,
    type: input.type,
    productId: purchase.productId,
    grant: purchase.grant,
    subject: purchase.subject,
    amount: purchase.amount,
    channel: input.channel,
    expiresAt: new Date(now.getTime() + expireMinutes * 60_000),
    idempotencyKey: ctx.idempotencyKey ?? null,
    requestHash: ctx.idempotencyKey ? hash : null,
  }

  if (input.channel === 'BALANCE') {
    if (input.type === 'BALANCE') throw badRequest('余额充值不能使用余额支付')
    try {
      return await db().$transaction(async (tx) => {
        const order = await tx.order.create({ data: { ...base, payment: {} }, select: { id: true } })
        await payFromBalance(tx, ctx.userId, order.id, purchase)
        return { order: await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: ORDER_SELECT }), payment: {} }
      })
    } catch (error) {
      return answerKeyClash(error, ctx, hash)
    }
  }

  const wechat = input.channel === 'WECHAT' ? await wechatMerchant('new-orders') : null
  const alipay = input.channel === 'ALIPAY' ? await alipayMerchant('new-orders') : null
  if (input.channel === 'WECHAT' && !wechat) throw badRequest('本站暂未开通微信支付')
  if (input.channel === 'ALIPAY' && !alipay) throw badRequest('本站暂未开通支付宝支付')
  const tradeType = input.channel === 'WECHAT' ? (input.tradeType ?? 'NATIVE') : null
  if (tradeType === 'APP') throw badRequest('APP 支付只能在手机应用中使用，网页请选择扫码、H5 或公众号支付')
  if (tradeType === 'JSAPI' && wechat && (await getConfigValue<string>('WX_APP_ID')) !== wechat.appId)
    throw badRequest('微信内支付需要微信支付绑定的 AppID 与公众号登录使用的 AppID 相同，请联系站长')
  const openid = tradeType === 'JSAPI' ? await wxOpenIdOf(ctx.userId) : null
  if (tradeType === 'JSAPI' && !openid) throw badRequest('请先在微信中登录本站（绑定微信）后再使用微信支付')
  const alipayMethod = input.channel === 'ALIPAY' ? (input.alipayMethod ?? 'page') : null

  let order
  try {
    order = await db().order.create({
      data: { ...base, tradeType, alipayMethod, nextQueryAt: new Date(now.getTime() + FIRST_QUERY_AFTER_MS) },
      select: ORDER_SELECT,
    })
  } catch (error) {
    return answerKeyClash(error, ctx, hash)
  }
  const returnUrl = `${siteUrl()}${withOrderParam(safeRedirectPath(input.returnPath ?? '/account'), order.id)}`
  let payment: PaymentInstructions
  try {
    payment = wechat
      ? await prepayWechat(wechat, order, tradeType as 'JSAPI' | 'NATIVE' | 'MWEB', { openid, clientIp: ctx.clientIp, returnUrl })
      : await prepayAlipay(alipay!, order, alipayMethod as 'page' | 'wap' | 'qr', { returnUrl })
  } catch (error) {
    await db().order.updateMany({
      where: { id: order.id, status: 'PENDING' },
      data: { status: 'FAIL', nextQueryAt: null, closedAt: new Date(), flag: failureNote(error) },
    })
    throw error instanceof AppError ? error : serviceUnavailable('支付下单失败，请稍后再试')
  }
  await db().order.update({ where: { id: order.id }, data: { payment } })
  return { order, payment }
}

/** Takes the price from the balance and fulfils the order, all in the caller's transaction. */
async function payFromBalance(tx: Tx, userId: string, orderId: string, purchase: Purchase): Promise<void> {
  await postMovement(tx, {
    userId,
    account: 'BALANCE',
    kind: 'ORDER_PAYMENT',
    amount: -purchase.amount,
    reference: `order:${orderId}:pay`,
    note: purchase.subject,
  })
  await fulfilOrder(tx, orderId, { by: 'balance' })
  await refuseUngiven(tx, userId, orderId, purchase.grant.videoIds ?? [])
}

async function resolvePurchase(userId: string, input: TCreateOrder): Promise<Purchase> {
  if (input.type === 'BUY_VIDEO_MATERIAL' || input.type === 'BATCH_BUY_VIDEO_MATERIAL') {
    const priced = await priceVideos(userId, input.videoIds ?? [], input.type === 'BATCH_BUY_VIDEO_MATERIAL')
    return { subject: priced.subject, amount: priced.total, grant: { videoIds: priced.videoIds, videoPrices: priced.prices }, productId: null }
  }
  if (input.productId === undefined) {
    if (input.type !== 'BALANCE' || input.amount === undefined) throw badRequest('请选择要购买的商品')
    const [min, max] = await Promise.all([getConfigValue<number>('RECHARGE_MIN_CENTS'), getConfigValue<number>('RECHARGE_MAX_CENTS')])
    return purchaseOfCustomRecharge(input.amount, { min, max })
  }
  const product = await db().product.findFirst({ where: { id: input.productId, enabled: true } })
  if (!product || product.type !== input.type) throw badRequest('商品不存在或已下架')
  const purchase = purchaseOfProduct(product)
  const { membership } = purchase.grant
  if (membership) await refuseDowngrade(userId, membership, { ...purchase.grant, productId: product.id, planName: product.name })
  return purchase
}

/** The answer already given to this key, or null when the key is new. */
async function replay(ctx: OrderContext, hash: string): Promise<CreatedOrder | null> {
  const earlier = await db().order.findUnique({
    where: { userId_idempotencyKey: { userId: ctx.userId, idempotencyKey: ctx.idempotencyKey! } },
    select: { ...ORDER_SELECT, requestHash: true, payment: true, flag: true },
  })
  if (!earlier) return null
  if (earlier.requestHash !== hash) throw conflict('这个 Idempotency-Key 已用于另一笔内容不同的订单，请为新的订单使用新的 Key')
  const { requestHash: _hash, payment, flag, ...order } = earlier
  if (payment === null) {
    if (order.status === 'PENDING') throw conflict(MAKING_MESSAGE)
    throw new AppError('SERVICE_UNAVAILABLE', flag ?? '支付下单失败，请重新发起支付')
  }
  return { order, payment: payment as PaymentInstructions }
}

/** Another request with the same key won the insert: answer as its replay (or 409 while it is being made). */
async function answerKeyClash(error: unknown, ctx: OrderContext, hash: string): Promise<CreatedOrder> {
  const isKeyClash = (error as { code?: string }).code === 'P2002' && ctx.idempotencyKey
  if (!isKeyClash) throw error
  const earlier = await replay(ctx, hash)
  if (!earlier) throw conflict(MAKING_MESSAGE)
  return earlier
}

const wxOpenIdOf = async (userId: string) => (await db().user.findUnique({ where: { id: userId }, select: { wxOpenId: true } }))?.wxOpenId ?? null
const withOrderParam = (path: string, orderId: string) => `${path}${path.includes('?') ? '&' : '?'}order=${encodeURIComponent(orderId)}`
const failureNote = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300)
