// POST /api/admin/models/{id}/test: 测试连接 — the backend's health or model list → data: {ok, message, detail}.
import { z } from '@/lib/zod'
import { route } from '@/lib/http/route'
import { testModel } from '@/lib/models/manage-models'

export const POST = route({ access: 'console', params: z.object({ id: z.string().min(1).max(64) }) }, ({ params }) => testModel(params.id))
