import 'server-only'
import { db } from '@/lib/db'
import { createAdapter, isSupportedBackend } from '@/lib/generation/backends/registry'
import { notFound } from '@/lib/http/app-error'
import { MODEL_SELECT } from './admin-model-views'
import { backendConfig } from './backend-config'

/** 测试连接: asks the backend for its health or model list and reports what it said. */
export async function testModel(id: string): Promise<{ ok: boolean; message: string; detail?: unknown }> {
  const model = await db().aiModel.findUnique({ where: { id }, select: MODEL_SELECT })
  if (!model) throw notFound('模型不存在')
  if (!isSupportedBackend(model.backend)) return { ok: false, message: `暂不支持该后端类型（${model.backend}）` }
  const adapter = createAdapter(model.backend, backendConfig(model))
  const timeout = new Promise<{ ok: boolean; message: string }>((resolve) =>
    setTimeout(() => resolve({ ok: false, message: '连接超时（15 秒无响应）' }), 15_000).unref(),
  )
  return Promise.race([adapter.test(), timeout])
}
