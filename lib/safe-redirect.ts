/**
 * Where to go after login: only a path on this site. Anything else (another origin,
 * protocol-relative //host, backslashes, control characters) becomes '/'.
 */
export function safeRedirectPath(value: string | null | undefined, origin = 'http://localhost'): string {
  if (!value || typeof value !== 'string') return '/'
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/'
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/'
  try {
    const url = new URL(value, origin)
    if (url.origin !== new URL(origin).origin) return '/'
    // Parsing removes dot segments ('/.//evil.com' → '//evil.com'): check the result too.
    const path = url.pathname + url.search + url.hash
    return path.startsWith('//') || path.startsWith('/\\') ? '/' : path
  } catch {
    return '/'
  }
}

/** The login URL that brings the user back to `currentPath` afterwards. */
export function loginUrlFor(currentPath: string): string {
  return `/login?redirect=${encodeURIComponent(currentPath)}`
}
