import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import type { WallWorkDetail } from './schemas'
import { toWallItem, wallItemSelect } from './wall-views'

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const text = (v: unknown) => (typeof v === 'string' ? v : null)

/** One work on the wall with the parameters it was made with; a work not on the wall is not found (its owner and the console see it too). */
export async function getWallWork(viewer: { id: string; canModerate: boolean } | null, id: string): Promise<WallWorkDetail> {
  const viewerId = viewer?.id ?? null
  const row = await db().wallWork.findUnique({
    where: { id },
    select: {
      ...wallItemSelect(viewerId),
      status: true,
      userId: true,
      createdAt: true,
      task: { select: { params: true, results: true } },
      ...(viewerId ? { favoritedBy: { where: { userId: viewerId }, select: { userId: true } } } : {}),
    },
  })
  const visible = row && (row.status === 'APPROVED' || row.userId === viewerId || viewer?.canModerate)
  if (!row || !visible) throw notFound('作品不存在或未公开')
  const params = (row.task.params ?? {}) as Record<string, unknown>
  const results = Array.isArray(row.task.results) ? (row.task.results as { seed?: unknown }[]) : []
  const image = results.find((r) => (r as { url?: string }).url === row.imageUrl)
  return {
    ...toWallItem(row, viewerId),
    ...(viewerId ? { favorited: ((row as { favoritedBy?: unknown[] }).favoritedBy?.length ?? 0) > 0 } : {}),
    negativePrompt: text(params.negativePrompt) ?? '',
    seed: num(image?.seed) ?? num(params.seed),
    steps: num(params.steps),
    cfgScale: num(params.cfgScale),
    sampler: text(params.sampler),
    createdAt: row.createdAt,
    listedAt: row.listedAt,
  }
}
