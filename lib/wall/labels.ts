// The wall's types, statuses and 做同款 links: shared with the browser, so free of zod (see
// docs/ARCHITECTURE.md, Layers: browser code reaches no zod).

/** What the wall can be filtered by: the kind of model that made the work (VIDEO: an AI clip). */
export const WALL_TYPES = ['MID_JOURNEY', 'STABLE_DIFFUSION', 'VIDEO'] as const
export type WallType = (typeof WALL_TYPES)[number]

export const WALL_STATUSES = ['PENDING', 'APPROVED', 'HIDDEN'] as const
export const WALL_STATUS_LABELS: Record<(typeof WALL_STATUSES)[number], string> = { PENDING: '待审核', APPROVED: '已上墙', HIDDEN: '已隐藏' }

/** Where 做同款 opens, with the work's id for the page to read its parameters. */
const SAME_PAGE: Record<WallType, string> = { MID_JOURNEY: '/mj', STABLE_DIFFUSION: '/text2img', VIDEO: '/ai_video' }

export function makeSameHref(work: { id: string; type: WallType }): string {
  return `${SAME_PAGE[work.type]}?same=${encodeURIComponent(work.id)}`
}
