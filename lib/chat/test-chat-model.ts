import 'server-only'
import { db } from '@/lib/db'
import { notFound } from '@/lib/http/app-error'
import { openChatSecret } from './chat-secret'
import { CHAT_MODEL_NOT_FOUND } from './manage-chat-models'
import { streamChat, UpstreamError } from './openai-chat'

const LIMIT_MS = 20_000

/** 测试连接: a one-line question to the model, streamed like a real chat; reports the start of the answer or why it failed. */
export async function testChatModel(id: string): Promise<{ ok: boolean; message: string }> {
  const model = await db().chatModel.findUnique({ where: { id }, select: { endpoint: true, secretEnc: true, model: true } })
  if (!model) throw notFound(CHAT_MODEL_NOT_FOUND)
  const signal = AbortSignal.timeout(LIMIT_MS)
  let answer = ''
  try {
    for await (const piece of streamChat({
      endpoint: model.endpoint,
      key: model.secretEnc ? openChatSecret(model.secretEnc) : null,
      model: model.model,
      messages: [{ role: 'user', content: '你好，请回复“连接正常”。' }],
      maxTokens: 20,
      signal,
    })) {
      answer += piece
      if (answer.length >= 40) break
    }
  } catch (error) {
    if (signal.aborted) return { ok: false, message: `连接超时（${LIMIT_MS / 1000} 秒无响应）` }
    if (error instanceof UpstreamError) return { ok: false, message: `${error.userMessage}（${error.message.slice(0, 200)}）` }
    return { ok: false, message: `连接失败：${String(error).slice(0, 200)}` }
  }
  return answer ? { ok: true, message: `连接成功，模型回复：${answer.slice(0, 40)}` } : { ok: false, message: '连接成功，但模型没有返回内容' }
}
