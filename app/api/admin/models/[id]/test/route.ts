// POST /api/admin/models/{id}/test: 测试连接 — the backend's health or model list → data: {ok, message, detail}.
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'
import { testModel } from '@/lib/models/test-model'

export const POST = route({ access: 'console', params: ZIdParamsSchema }, ({ params }) => testModel(params.id))
