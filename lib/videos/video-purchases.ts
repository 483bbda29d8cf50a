import 'server-only'
import { db, type Tx } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import { badRequest, conflict } from '@/lib/http/app-error'

export type PricedVideos = { videoIds: string[]; prices: number[]; total: number; subject: string }

/** What one order can hold: Order.amount is a 4-byte integer of cents. */
const MAX_ORDER_CENTS = 2_147_483_647

/**
 * What an order for these paid items costs the user (docs/PRODUCT.md §18): one item already
 * bought is a 409 已购买; a batch leaves bought ones out of the total; nothing left is a 400.
 */
export async function priceVideos(userId: string, videoIds: string[], batch: boolean): Promise<PricedVideos> {
  const ids = [...new Set(videoIds)]
  if (ids.length === 0) throw badRequest('请选择要购买的视频')
  if (!batch && ids.length !== 1) throw badRequest('单个购买只能选择一个视频，多个请使用批量购买')
  const videos = await db().video.findMany({ where: { id: { in: ids }, published: true, kind: 'PAID' }, select: { id: true, title: true, price: true } })
  if (videos.length !== ids.length) throw badRequest('视频不存在、已下架或不是付费素材')
  const owned = new Set((await db().videoPurchase.findMany({ where: { userId, videoId: { in: ids } }, select: { videoId: true } })).map((p) => p.videoId))
  if (!batch && owned.size > 0) throw conflict('已购买')
  const left = ids.map((id) => videos.find((v) => v.id === id)!).filter((v) => !owned.has(v.id))
  if (left.length === 0) throw badRequest('所选视频都已购买')
  const total = left.reduce((sum, v) => sum + v.price, 0)
  if (total <= 0) throw badRequest('所选视频价格为 0，无需购买')
  if (total > MAX_ORDER_CENTS) throw badRequest('所选视频总价过高，请分批购买')
  const subject = left.length === 1 ? `视频素材：${left[0]!.title}`.slice(0, 100) : `视频素材 ${left.length} 个`
  return { videoIds: left.map((v) => v.id), prices: left.map((v) => v.price), total, subject }
}

/**
 * A balance payment, after its order's grant: every item must now be this order's purchase.
 * An item bought meanwhile (the same video from another tab, or a WeChat or Alipay order of
 * it settling at that moment, priced before either committed) is 409 已购买, and one the
 * console deleted meanwhile 400, so the payment is rolled back instead of charging for what
 * was not given. The grant's insert waited on the purchases' unique index for any such order
 * still settling, so its outcome is known here.
 */
export async function refuseUngiven(tx: Tx, userId: string, orderId: string, videoIds: string[]): Promise<void> {
  if (videoIds.length === 0) return
  if ((await tx.videoPurchase.count({ where: { orderId } })) === videoIds.length) return
  const elsewhere = await tx.videoPurchase.count({ where: { userId, videoId: { in: videoIds }, orderId: { not: orderId } } })
  throw elsewhere > 0 ? conflict('已购买') : badRequest('所选视频已下架，请刷新后重试')
}

/**
 * Inside the order's fulfilment: one purchase row per item, unique per user and video, so a
 * replayed fulfilment gives nothing twice. An item another order already bought (two
 * payment codes of the same video, both paid) flags the order: the user paid twice for it,
 * and a person decides on the refund.
 */
export async function grantVideos(tx: Tx, userId: string, orderId: string, videoIds: string[], prices: number[] | undefined): Promise<void> {
  if (videoIds.length === 0) return
  // An item the console deleted after the order was priced cannot be given; the payment still
  // settles (else it is refused for ever and stays PENDING), flagged for a refund. The share
  // lock waits for a delete under way and keeps the rest from going before the purchases exist.
  const present = new Set((await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Video" WHERE "id" = ANY(${videoIds}::text[]) FOR KEY SHARE`).map((v) => v.id))
  await tx.videoPurchase.createMany({
    data: videoIds.flatMap((videoId, i) => (present.has(videoId) ? [{ userId, videoId, orderId, price: prices?.[i] ?? 0 }] : [])),
    skipDuplicates: true,
  })
  const gone = videoIds.length - present.size
  if (gone > 0) {
    const note = `其中 ${gone} 个视频在付款前已被删除，未能交付，请核实后退款`
    await tx.$executeRaw`UPDATE "Order" SET "flag" = concat_ws('；', "flag", ${note}::text) WHERE "id" = ${orderId}`
  }
  const elsewhere = await tx.videoPurchase.count({ where: { userId, videoId: { in: videoIds }, orderId: { not: orderId } } })
  if (elsewhere === 0) return
  const note = `其中 ${elsewhere} 个视频此前已由该用户的其他订单购买，本订单重复付款，请核实后退款`
  await tx.$executeRaw`UPDATE "Order" SET "flag" = concat_ws('；', "flag", ${note}::text) WHERE "id" = ${orderId}`
}

/**
 * A refund takes back what this order gave. An item another paid order of the user also
 * bought (the twice-paid case above) stays theirs, as that order's purchase.
 */
export async function revokeVideos(tx: Tx, orderId: string): Promise<void> {
  const alsoPaidBy = Prisma.sql`SELECT o."id" FROM "Order" o
    WHERE o."userId" = p."userId" AND o."id" <> ${orderId} AND o."status" = 'SUCCESS' AND o."refundNo" IS NULL
      AND o."grant"->'videoIds' @> jsonb_build_array(p."videoId")
    ORDER BY o."paidAt" LIMIT 1`
  await tx.$executeRaw`UPDATE "VideoPurchase" p SET "orderId" = (${alsoPaidBy}) WHERE p."orderId" = ${orderId} AND EXISTS (${alsoPaidBy})`
  await tx.videoPurchase.deleteMany({ where: { orderId } })
}
