import 'server-only'
import type { Tx } from '@/lib/db'
import { LORA_BACKENDS } from '@/lib/generation/backends/types'
import { badRequest, notFound } from '@/lib/http/app-error'

/**
 * The backend model a preset binds to exists and, when the preset has a LoRA, can load one.
 * Its row is held (FOR SHARE) until the preset is written, so a change of its backend
 * (which checks the presets bound to it: lib/models/update-model.ts) waits for the preset.
 */
export async function assertBoundModel(tx: Tx, modelId: string | undefined, lora: string | null = null): Promise<void> {
  if (!modelId) return
  const [model] = await tx.$queryRaw<{ backend: string }[]>`SELECT "backend" FROM "AiModel" WHERE "id" = ${modelId} FOR SHARE`
  if (!model) throw notFound('后端模型不存在')
  if (lora && !LORA_BACKENDS.includes(model.backend))
    throw badRequest('所选后端模型不能加载 LoRA（只有 SD WebUI 和 ComfyUI 可以），请清空 LoRA 或换一个后端模型')
}
