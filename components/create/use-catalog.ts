'use client'

import { useModels, type ModelOption } from '@/lib/api-client/resources/models'
import { MAIN_NAV, type NavItem } from '@/lib/navigation'

/** Whether an enabled Midjourney model exists (the MJ pages and tabs show only then); undefined while loading. */
export function hasMjModel(models: ModelOption[] | undefined): boolean | undefined {
  return models?.some((m) => m.type === 'MID_JOURNEY')
}

/** Whether an enabled model makes clips (/ai_video and its tab show only then); undefined while loading. */
export function hasVideoModel(models: ModelOption[] | undefined): boolean | undefined {
  return models?.some((m) => m.video !== null)
}

/** The main navigation without what nothing can run yet (MJ 绘画 before an MJ model exists, AI 视频 before a video model). */
export function useMainNav(): NavItem[] {
  const models = useModels().data
  const available = { 'mj-model': hasMjModel(models), 'video-model': hasVideoModel(models) }
  return MAIN_NAV.filter((item) => !item.needs || available[item.needs] === true)
}

/** The models that offer a task type, cheapest first shown in their configured order. */
export function modelsFor(models: ModelOption[] | undefined, taskType: string): ModelOption[] {
  return (models ?? []).filter((m) => typeof m.prices[taskType] === 'number')
}
