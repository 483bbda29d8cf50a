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

/** The pages that sign a user in (or finish a WeChat sign-in): never a place to return to afterwards. */
export const SIGN_IN_PATHS: readonly string[] = ['/login', '/login/fastlogin', '/login_by_password', '/login_by_wechat', '/wx_auth']
const BIND_MOBILE = '/bind_mobile'

const pathnameOf = (path: string) => new URL(path, 'http://localhost').pathname.replace(/\/+$/, '').toLowerCase() || '/'

/** Whether this same-origin path is one of the sign-in pages. */
export function isSignInPath(path: string): boolean {
  return SIGN_IN_PATHS.includes(pathnameOf(path))
}

/**
 * Where a finished sign-in goes: a safe `redirect`, except that a sign-in page becomes '/'
 * (signing in again there would look as if the first attempt failed). /bind_mobile is
 * unwrapped to where it would lead: when the site needs the phone, the start-up rule sends
 * the user there again with that same destination.
 */
export function afterSignInPath(value: string | null | undefined, origin = 'http://localhost'): string {
  let path = safeRedirectPath(value, origin)
  for (let depth = 0; depth < 5 && pathnameOf(path) === BIND_MOBILE; depth++) {
    path = safeRedirectPath(new URL(path, 'http://localhost').searchParams.get('redirect'), origin)
  }
  return pathnameOf(path) === BIND_MOBILE || isSignInPath(path) ? '/' : path
}

/** The login URL that brings the user back to `currentPath` afterwards (from a sign-in page: plain /login). */
export function loginUrlFor(currentPath: string): string {
  return afterSignInPath(currentPath) === '/' ? '/login' : `/login?redirect=${encodeURIComponent(currentPath)}`
}
