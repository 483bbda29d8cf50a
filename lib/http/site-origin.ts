import { env } from '@/lib/env'

/**
 * The site's public origin, for links that leave it (OAuth callbacks, QR codes):
 * PUBLIC_URL when set; behind a declared proxy its X-Forwarded-Proto/Host; otherwise
 * the origin the request came to.
 */
export function siteOrigin(req: Request): string {
  const { PUBLIC_URL, TRUST_PROXY } = env()
  if (PUBLIC_URL) return new URL(PUBLIC_URL).origin
  const url = new URL(req.url)
  if (TRUST_PROXY) {
    const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
    const host = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || req.headers.get('host')
    if (host && (proto === 'http' || proto === 'https')) return `${proto}://${host}`
  }
  const host = req.headers.get('host')
  return host ? `${url.protocol}//${host}` : url.origin
}
