import 'server-only'
import type { Tx } from '@/lib/db'
import { LORA_BACKENDS } from '@/lib/generation/backends/types'
import { badRequest, notFound } from '@/lib/http/app-error'

/** The backend model a preset binds to exists and, when the preset has a LoRA, can load one. */
export async function assertBoundModel(tx: Tx, modelId: string | undefined, lora: string | null = null): Promise<void> {
  if (!modelId) return
  const model = await tx.aiModel.findUnique({ where: { id: modelId }, select: { backend: true } })
  if (!model) throw notFound('后端模型不存在')
  if (lora && !LORA_BACKENDS.includes(model.backend))
    throw badRequest('所选后端模型不能加载 LoRA（只有 SD WebUI 和 ComfyUI 可以），请清空 LoRA 或换一个后端模型')
}
