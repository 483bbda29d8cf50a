// GET /api/health → data: {ok: true}. A liveness probe for load balancers and orchestrators:
// it answers as soon as the web server serves requests, touching neither the database nor
// the caller's token, so it is also the cheapest route the framework can serve (the
// ceiling bench/http.ts measures the others against).
import { ok } from '@/lib/http/envelope'

export const dynamic = 'force-dynamic'

export function GET(): Response {
  return ok({ ok: true }, { headers: { 'cache-control': 'no-store' } })
}
