import 'server-only'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import { MAX_PLAN_DAYS, ZProductSchema, type TProduct, type TProductPatch } from './schemas'

const PUBLIC_SELECT = {
  id: true,
  type: true,
  name: true,
  description: true,
  price: true,
  points: true,
  balance: true,
  days: true,
  dailyPoints: true,
  discountPercent: true,
  dailyMessages: true,
  sort: true,
} satisfies Prisma.ProductSelect

const ADMIN_SELECT = { ...PUBLIC_SELECT, enabled: true, createdAt: true, updatedAt: true } satisfies Prisma.ProductSelect
const ORDER = [{ sort: 'asc' as const }, { id: 'asc' as const }]

type PublicRow = Prisma.ProductGetPayload<{ select: typeof PUBLIC_SELECT }>
/** GET /api/products: nulls left out, so optional fields are absent rather than null. */
const publicView = (row: PublicRow) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as Partial<PublicRow> & Pick<PublicRow, 'id' | 'type' | 'name'>

/** What the site sells now (GET /api/products). */
export async function listProducts() {
  const rows = await db().product.findMany({ where: { enabled: true }, orderBy: ORDER, select: PUBLIC_SELECT })
  return { list: rows.map(publicView) }
}

export async function listProductsForAdmin() {
  return { list: await db().product.findMany({ orderBy: ORDER, select: ADMIN_SELECT }) }
}

export async function createProduct(actor: SessionUser, ip: string, input: TProduct): Promise<{ id: number }> {
  return db().$transaction(async (tx) => {
    const row = await tx.product.create({ data: input, select: ADMIN_SELECT })
    await recordAudit(tx, actor, ip, { action: 'product.create', targetType: 'Product', targetId: String(row.id), after: row })
    return { id: row.id }
  })
}

/** A change is checked as a whole product (a pack cannot lose its points); orders already made keep what they were sold. */
export async function updateProduct(actor: SessionUser, ip: string, id: number, patch: TProductPatch) {
  return db().$transaction(async (tx) => {
    // Edits of one product take turns, so the whole is checked against what it will be.
    await tx.$queryRaw`SELECT 1 FROM "Product" WHERE "id" = ${id} FOR UPDATE`
    const before = await tx.product.findUnique({ where: { id }, select: ADMIN_SELECT })
    if (!before) throw notFound('商品不存在')
    // A plan saved with more days than now allowed can still be switched off or re-priced: only days sent are held to the limit.
    const keptDays = before.days === null ? null : Math.min(before.days, MAX_PLAN_DAYS)
    const merged = ZProductSchema.safeParse({ ...before, days: keptDays, ...patch })
    if (!merged.success) throw badRequest(merged.error.issues[0]?.message ?? '商品信息不完整')
    const row = await tx.product.update({ where: { id }, data: patch, select: ADMIN_SELECT })
    await recordAudit(tx, actor, ip, { action: 'product.update', targetType: 'Product', targetId: String(id), before, after: row })
    return row
  })
}

/** Sold products are kept for their orders' history: deleting one that was ordered only disables it. */
export async function deleteProduct(actor: SessionUser, ip: string, id: number): Promise<{ deleted: boolean }> {
  return db().$transaction(async (tx) => {
    const before = await tx.product.findUnique({ where: { id }, select: { ...ADMIN_SELECT, _count: { select: { orders: true } } } })
    if (!before) throw notFound('商品不存在')
    const { _count, ...shown } = before
    if (_count.orders > 0) await tx.product.update({ where: { id }, data: { enabled: false } })
    else await tx.product.delete({ where: { id } })
    await recordAudit(tx, actor, ip, {
      action: 'product.delete',
      targetType: 'Product',
      targetId: String(id),
      before: shown,
      after: { disabledOnly: _count.orders > 0 },
    })
    return { deleted: _count.orders === 0 }
  })
}
