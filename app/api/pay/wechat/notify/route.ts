// POST /api/pay/wechat/notify: WeChat Pay's payment notification, answered as WeChat expects
// (204 when handled; 401/400/500 with {code: 'FAIL', message} so it retries). Raw body: the signature covers it byte for byte.
import { handleWechatNotification } from '@/lib/payments/wechat/handle-notification'
import { AppError } from '@/lib/http/app-error'
import { readTextWithin } from '@/lib/http/body-limit'

const LIMIT = 64 * 1024

export async function POST(req: Request): Promise<Response> {
  let raw: string
  try {
    raw = await readTextWithin(req, LIMIT)
  } catch (error) {
    const status = error instanceof AppError ? error.status : 400
    return Response.json({ code: 'FAIL', message: status === 413 ? '请求体过大' : '请求体读取失败' }, { status })
  }
  try {
    const reply = await handleWechatNotification(req.headers, raw)
    return reply.status === 204 ? new Response(null, { status: 204 }) : Response.json(reply.body, { status: reply.status })
  } catch (error) {
    console.error('[payments] WeChat notification failed:', (error as Error).message)
    return Response.json({ code: 'FAIL', message: '系统繁忙' }, { status: 500 })
  }
}
