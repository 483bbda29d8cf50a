import 'server-only'
import { db, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/audit/record-audit'
import type { SessionUser } from '@/lib/auth/session'
import { badRequest, notFound } from '@/lib/http/app-error'
import type { TShowcaseInput, WallItem } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

export type ShowcaseView = {
  id: number
  title: string
  sort: number
  cover: { thumbUrl: string; width: number; height: number } | null
  coverWorkId: string | null
  works: WallItem[]
}

/** The collections in the admin's order, each with its works in order; works not on the wall (hidden, withdrawn) are left out. */
export async function listShowcases(viewerId: string | null, options: { includeEmpty?: boolean } = {}): Promise<ShowcaseView[]> {
  const rows = await db().showcase.findMany({
    orderBy: [{ sort: 'desc' }, { id: 'asc' }],
    include: { items: { orderBy: { position: 'asc' }, select: { work: { select: { ...wallItemSelect(viewerId), status: true } } } } },
  })
  return rows
    .map((s) => {
      const works = s.items.filter((i) => i.work.status === 'APPROVED').map((i) => toWallItem(i.work, viewerId))
      const cover = works.find((w) => w.id === s.coverWorkId) ?? works[0]
      return {
        id: s.id,
        title: s.title,
        sort: s.sort,
        coverWorkId: s.coverWorkId,
        cover: cover ? { thumbUrl: cover.thumbUrl, width: cover.width, height: cover.height } : null,
        works,
      }
    })
    .filter((s) => options.includeEmpty || s.works.length > 0)
}

async function checkWorks(tx: Tx, input: TShowcaseInput): Promise<string[]> {
  const workIds = [...new Set(input.workIds)]
  const found = await tx.wallWork.count({ where: { id: { in: workIds }, status: 'APPROVED' } })
  if (found !== workIds.length) throw badRequest('合集只能包含已上墙的作品')
  if (input.coverWorkId && !workIds.includes(input.coverWorkId)) throw badRequest('封面须是合集中的作品')
  return workIds
}

export async function createShowcase(actor: SessionUser, ip: string, input: TShowcaseInput): Promise<{ id: number }> {
  return db().$transaction(async (tx) => {
    const workIds = await checkWorks(tx, input)
    const showcase = await tx.showcase.create({
      data: {
        title: input.title,
        coverWorkId: input.coverWorkId,
        sort: input.sort,
        items: { create: workIds.map((workId, position) => ({ workId, position })) },
      },
      select: { id: true },
    })
    await recordAudit(tx, actor, ip, {
      action: 'showcase.create',
      targetType: 'Showcase',
      targetId: String(showcase.id),
      after: { title: input.title, workIds },
    })
    return showcase
  })
}

export async function updateShowcase(actor: SessionUser, ip: string, id: number, input: TShowcaseInput): Promise<{ id: number }> {
  return db().$transaction(async (tx) => {
    const before = await tx.showcase.findUnique({ where: { id }, select: { title: true } })
    if (!before) throw notFound('合集不存在')
    const workIds = await checkWorks(tx, input)
    await tx.showcaseItem.deleteMany({ where: { showcaseId: id } })
    await tx.showcase.update({
      where: { id },
      data: {
        title: input.title,
        coverWorkId: input.coverWorkId,
        sort: input.sort,
        items: { create: workIds.map((workId, position) => ({ workId, position })) },
      },
    })
    await recordAudit(tx, actor, ip, {
      action: 'showcase.update',
      targetType: 'Showcase',
      targetId: String(id),
      before,
      after: { title: input.title, workIds },
    })
    return { id }
  })
}

export async function deleteShowcase(actor: SessionUser, ip: string, id: number): Promise<{ id: number }> {
  return db().$transaction(async (tx) => {
    const before = await tx.showcase.findUnique({ where: { id }, select: { title: true } })
    if (!before) throw notFound('合集不存在')
    await tx.showcase.delete({ where: { id } })
    await recordAudit(tx, actor, ip, { action: 'showcase.delete', targetType: 'Showcase', targetId: String(id), before })
    return { id }
  })
}
