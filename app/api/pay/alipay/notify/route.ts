// POST /api/pay/alipay/notify: Alipay's asynchronous notification (form body); the plain body `success` only when handled.
import { handleAlipayNotification } from '@/lib/payments/alipay/handle-notification'
import { AppError } from '@/lib/http/app-error'
import { readTextWithin } from '@/lib/http/body-limit'
import { clientIp } from '@/lib/http/client-ip'

const LIMIT = 64 * 1024

export async function POST(req: Request): Promise<Response> {
  let raw: string
  try {
    raw = await readTextWithin(req, LIMIT)
  } catch (error) {
    return new Response('fail', { status: error instanceof AppError ? error.status : 400 })
  }
  try {
    const reply = await handleAlipayNotification(raw, clientIp(req.headers))
    return new Response(reply.body, { status: reply.status, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  } catch (error) {
    console.error('[payments] Alipay notification failed:', (error as Error).message)
    return new Response('fail', { status: 500 })
  }
}
