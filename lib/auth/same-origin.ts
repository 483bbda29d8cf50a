import { forbidden } from '@/lib/http/app-error'
import { siteOrigin } from '@/lib/http/site-origin'

export const CROSS_SITE_REFUSED = '请求来源不正确，请在本站页面上操作'

/**
 * For the few requests a cookie authorizes (the app otherwise reads only the
 * Authorization header): the browser must say the request comes from one of our own
 * pages. Origin is sent with every POST by current browsers; Sec-Fetch-Site, when
 * present, must be same-origin. Neither can be set by a page of another site.
 */
export function assertSameOriginRequest(req: Request): void {
  const fetchSite = req.headers.get('sec-fetch-site')
  if (fetchSite && fetchSite !== 'same-origin') throw forbidden(CROSS_SITE_REFUSED)
  const origin = req.headers.get('origin')
  if (!origin) {
    if (fetchSite === 'same-origin') return
    throw forbidden(CROSS_SITE_REFUSED)
  }
  let host: string
  try {
    host = new URL(origin).host
  } catch {
    throw forbidden(CROSS_SITE_REFUSED)
  }
  const ours = new Set([new URL(siteOrigin(req)).host, req.headers.get('host')].filter(Boolean))
  if (origin === 'null' || !ours.has(host)) throw forbidden(CROSS_SITE_REFUSED)
}
