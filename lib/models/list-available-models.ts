import 'server-only'
import { db } from '@/lib/db'
import { videoOptionsOf, type VideoOptions } from './video-options'

/**
 * Enabled models and what they cost, for the creation pages (no endpoints, no secrets); a
 * model that makes clips also says which lengths, ratios and resolutions it offers.
 */
export async function listAvailableModels() {
  const models = await db().aiModel.findMany({
    where: { enabled: true },
    select: { id: true, name: true, type: true, backend: true, prices: true, options: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
  return models.map(({ options, ...model }) => {
    const prices = (model.prices ?? {}) as Record<string, unknown>
    const makesClips = model.type === 'VIDEO' || 'VIDEO_TEXT2VIDEO' in prices || 'VIDEO_IMG2VIDEO' in prices
    return { ...model, video: makesClips ? videoOptionsOf(options) : (null as VideoOptions | null) }
  })
}
