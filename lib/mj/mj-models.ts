import 'server-only'
import { db } from '@/lib/db'
import { MJ_SPEEDS, type MjSpeed } from './compose-prompt'

/** The speed modes a proxy offers: the model's `options.speeds` (none unless the operator lists them). */
export function offeredSpeeds(options: unknown): MjSpeed[] {
  const speeds = (options as { speeds?: unknown } | null)?.speeds
  return Array.isArray(speeds) ? MJ_SPEEDS.filter((s) => speeds.includes(s)) : []
}

export type MjModelView = { id: string; name: string; prices: Record<string, number>; speeds: MjSpeed[] }

/** Enabled Midjourney models for /mj: prices per action and speed modes (no endpoints, no secrets). */
export async function listMjModels(): Promise<MjModelView[]> {
  const models = await db().aiModel.findMany({
    where: { enabled: true, type: 'MID_JOURNEY' },
    select: { id: true, name: true, prices: true, options: true },
    orderBy: [{ sort: 'asc' }, { createdAt: 'asc' }],
  })
  return models.map((m) => ({ id: m.id, name: m.name, prices: m.prices as Record<string, number>, speeds: offeredSpeeds(m.options) }))
}
