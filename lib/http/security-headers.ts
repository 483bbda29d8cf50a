import type { TEnv } from '@/lib/env'
import { viaTrustedProxy } from './client-ip'

/**
 * The security headers of every HTML page, set by proxy.ts (next.config.mjs adds the static
 * ones, nosniff, Referrer-Policy and X-Frame-Options, to every response).
 */
export type PageSecurity = {
  /** Fresh per request: Next.js puts it on its own inline and bundle scripts. */
  nonce: string
  /** `next dev`: React rebuilds server error stacks with eval. */
  isDev: boolean
  /** Served over https: HSTS, and plain-http subresources upgraded. */
  isHttps: boolean
  /** Origins stored files are served from besides the site (an S3 bucket or CDN). */
  fileOrigins: string[]
}

export const HSTS = 'max-age=31536000; includeSubDomains'

/** Powerful features the site never uses, denied to it and to anything it embeds. */
export const PERMISSIONS_POLICY = [
  'camera',
  'microphone',
  'geolocation',
  'payment',
  'usb',
  'serial',
  'hid',
  'midi',
  'display-capture',
  'accelerometer',
  'gyroscope',
  'magnetometer',
  'browsing-topics',
]
  .map((feature) => `${feature}=()`)
  .join(', ')

export function contentSecurityPolicy({ nonce, isDev, isHttps, fileOrigins }: PageSecurity): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced ones load (Next's chunks) may run, nothing else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ''}`,
    // Inline style attributes (React's style={...}, Next's own error pages) need 'unsafe-inline',
    // which a nonce in the list would switch off; styles cannot reach the token in localStorage.
    "style-src 'self' 'unsafe-inline'",
    // Covers and the logo may be any https:// address the admin enters, WeChat avatars live on
    // WeChat's hosts; results and uploads come from the site or its bucket.
    ['img-src', "'self'", 'data:', 'blob:', 'https:', ...fileOrigins].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    ...(isHttps ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
}

export function pageSecurityHeaders(page: PageSecurity): {
  'Content-Security-Policy': string
  'Permissions-Policy': string
  'Strict-Transport-Security'?: string
} {
  return {
    'Content-Security-Policy': contentSecurityPolicy(page),
    'Permissions-Policy': PERMISSIONS_POLICY,
    ...(page.isHttps ? { 'Strict-Transport-Security': HSTS } : {}),
  }
}

type Settings = Pick<TEnv, 'PUBLIC_URL' | 'TRUST_PROXY' | 'TRUST_PROXY_FROM' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_PUBLIC_URL' | 'S3_FORCE_PATH_STYLE'>

/**
 * Whether the site is served over https: its public address says so, or the request came
 * over https to a reverse proxy we trust to tell (X-Forwarded-Proto from where TRUST_PROXY_FROM says it connects).
 */
export function servedOverHttps(settings: Settings, headers: Headers): boolean {
  if (settings.PUBLIC_URL?.startsWith('https:')) return true
  const forwarded = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  return forwarded === 'https' && viaTrustedProxy(headers, settings)
}

/** Where browsers read stored files from when they are not on the site (as lib/storage/s3-files.ts builds the URLs). */
export function storedFileOrigins(settings: Settings): string[] {
  if (settings.S3_PUBLIC_URL) return [new URL(settings.S3_PUBLIC_URL).origin]
  if (!settings.S3_BUCKET || !settings.S3_ENDPOINT) return []
  const endpoint = new URL(settings.S3_ENDPOINT)
  return [`${endpoint.protocol}//${settings.S3_FORCE_PATH_STYLE ? endpoint.host : `${settings.S3_BUCKET}.${endpoint.host}`}`]
}
