// POST /api/admin/chat-models/{id}/test: 测试连接 — a one-line question streamed from the model → data: {ok, message}.
import { testChatModel } from '@/lib/chat/test-chat-model'
import { ZIdParamsSchema } from '@/lib/http/params'
import { route } from '@/lib/http/route'

export const POST = route({ access: 'admin', params: ZIdParamsSchema }, ({ params }) => testChatModel(params.id))
