// Every HTML page gets a Content-Security-Policy with a fresh nonce (Next.js reads it from the
// request's CSP header and puts it on its scripts), Permissions-Policy, and HSTS over https.
// Pages are rendered per request (app/layout.tsx is force-dynamic), as nonces require.
import { NextResponse, type NextRequest } from 'next/server'
import { env } from '@/lib/env'
import { pageSecurityHeaders, servedOverHttps, storedFileOrigins } from '@/lib/http/security-headers'

export function proxy(request: NextRequest) {
  const settings = env()
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
  const headers = pageSecurityHeaders({
    nonce,
    isDev: settings.NODE_ENV === 'development',
    isHttps: servedOverHttps(settings, request.headers),
    fileOrigins: storedFileOrigins(settings),
  })
  const requestHeaders = new Headers(request.headers)
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy'])
  const response = NextResponse.next({ request: { headers: requestHeaders } })
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
  return response
}

export const config = {
  matcher: [
    {
      // Pages only: not the API, stored files, build assets or public images; not prefetches.
      source: '/((?!api/|files/|_next/static|_next/image|imgs/|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
}
