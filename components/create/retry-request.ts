import type { TaskJson } from '@/lib/api-client/resources/tasks'

/** The submission that runs a finished task again: what the user asked for, not what we derived. */
export function retryRequest(task: TaskJson): { type: string; params: Record<string, unknown> } {
  const { baseType: _b, sourceTaskId, userPrompt, customModelId, ...params } = task.params
  if (task.type === 'MAKE_SAME') return { type: task.type, params: { sourceTaskId } }
  if (task.type === 'VIDEO_TEXT2VIDEO' || task.type === 'VIDEO_IMG2VIDEO') {
    const { imageKey: _i, lastImageKey: _l, imageUrl: _iu, lastImageUrl: _lu, count: _c, ...asked } = params
    return { type: task.type, params: asked }
  }
  if (task.type === 'SD_XIAOLIMAO') return { type: task.type, params: { ...params, prompt: userPrompt || undefined, customModelId } }
  return { type: task.type, params }
}
