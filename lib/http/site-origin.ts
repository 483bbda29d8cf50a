import { env, type TEnv } from '@/lib/env'
import { viaTrustedProxy } from './client-ip'

/**
 * The site's public origin, for links that leave it (OAuth callbacks, QR codes):
 * PUBLIC_URL when set; through the declared proxy (lib/http/client-ip.ts) its
 * X-Forwarded-Proto/Host; otherwise the origin the request came to.
 */
export function siteOrigin(req: Request, settings: Pick<TEnv, 'PUBLIC_URL' | 'TRUST_PROXY' | 'TRUST_PROXY_FROM'> = env()): string {
  if (settings.PUBLIC_URL) return new URL(settings.PUBLIC_URL).origin
  const url = new URL(req.url)
  if (viaTrustedProxy(req.headers, settings)) {
    const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim()
    const host = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || req.headers.get('host')
    if (host && (proto === 'http' || proto === 'https')) return `${proto}://${host}`
  }
  const host = req.headers.get('host')
  return host ? `${url.protocol}//${host}` : url.origin
}
