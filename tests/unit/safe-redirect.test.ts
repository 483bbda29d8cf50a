import { describe, expect, it } from 'vitest'
import { afterSignInPath, isSignInPath, loginUrlFor, safeRedirectPath } from '@/lib/safe-redirect'

/** Where to go after login: only a path on this site, everything else becomes '/'. */
describe('safeRedirectPath', () => {
  it.each([
    ['/', '/'],
    ['/my_cards', '/my_cards'],
    ['/admin/cards_mana?page=2&pageSize=20', '/admin/cards_mana?page=2&pageSize=20'],
    ['/video/12#comments', '/video/12#comments'],
    ['/text2img?prompt=%E7%8C%AB&x=1#top', '/text2img?prompt=%E7%8C%AB&x=1#top'],
    ['/a/b/../c', '/a/c'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected)
  })

  it('keeps a path relative to a given origin', () => {
    expect(safeRedirectPath('/profile?tab=1', 'https://ai.example.com')).toBe('/profile?tab=1')
  })

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/login'],
    ['triple slash', '///evil.com'],
    ['backslash', '/\\evil.com'],
    ['double backslash', '\\\\evil.com'],
    ['backslash later in the path', '/a\\..\\\\evil.com'],
    ['absolute http', 'http://evil.com'],
    ['absolute https', 'https://evil.com/x'],
    ['absolute same origin (not a path)', 'http://localhost/profile'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['relative without slash', 'evil.com'],
    ['empty string', ''],
    ['tab that URL parsing strips', '/\t/evil.com'],
    ['newline that URL parsing strips', '/\n/evil.com'],
    ['carriage return', '/\r/evil.com'],
    ['NUL', '/profile\u0000'],
    ['DEL', '/\u007f/evil.com'],
    ['leading space', ' //evil.com'],
  ])('rejects %s', (_name, input) => {
    expect(safeRedirectPath(input)).toBe('/')
  })

  it.each([null, undefined])('rejects %s', (input) => {
    expect(safeRedirectPath(input)).toBe('/')
  })

  it('rejects a non-string value even if the type is bypassed', () => {
    expect(safeRedirectPath(['/profile'] as unknown as string)).toBe('/')
    expect(safeRedirectPath({ toString: () => '/profile' } as unknown as string)).toBe('/')
  })

  /**
   * Dot segments: WHATWG URL parsing removes '.' and '..' (also written %2e / %2E), so these
   * inputs, which pass the leading-'//' check, normalise to the pathname '//evil.com'. Returned
   * as is, that is a protocol-relative URL to another site (an open redirect after login).
   */
  it.each(['/.//evil.com', '/..//evil.com', '/a/..//evil.com', '/%2e//evil.com', '/%2E%2E//evil.com', '/a/%2e%2e//evil.com/x?y=1'])(
    'rejects the dot-segment trick %s',
    (input) => {
      const result = safeRedirectPath(input)
      expect(result.startsWith('//')).toBe(false)
      expect(new URL(result, 'http://localhost').origin).toBe('http://localhost')
    },
  )

  it('never returns anything that leaves the origin (sweep over tricky inputs)', () => {
    const pieces = ['/', '//', '\\', '.', '..', '%2e', '%2f', '%5c', 'evil.com', '@evil.com', ':', '?', '#', '\t']
    const inputs: string[] = []
    for (const a of pieces) for (const b of pieces) for (const c of pieces) inputs.push(`/${a}${b}${c}`)
    for (const input of inputs) {
      const result = safeRedirectPath(input)
      expect(result.startsWith('/'), input).toBe(true)
      expect(result.startsWith('//') || result.startsWith('/\\'), `${JSON.stringify(input)} → ${result}`).toBe(false)
      expect(new URL(result, 'http://localhost').origin, input).toBe('http://localhost')
    }
  })
})

describe('loginUrlFor', () => {
  it('encodes the current url as the redirect parameter', () => {
    const current = '/my_cards?page=2&tab=已使用#x'
    const url = loginUrlFor(current)
    expect(url).toBe(`/login?redirect=${encodeURIComponent(current)}`)
    expect(url).toBe('/login?redirect=%2Fmy_cards%3Fpage%3D2%26tab%3D%E5%B7%B2%E4%BD%BF%E7%94%A8%23x')
    const parsed = new URL(url, 'http://localhost')
    expect(parsed.pathname).toBe('/login')
    expect([...parsed.searchParams.keys()]).toEqual(['redirect'])
    expect(parsed.searchParams.get('redirect')).toBe(current)
    expect(parsed.hash).toBe('')
  })

  it('round-trips through safeRedirectPath', () => {
    const current = '/admin/cards_mana?page=3'
    const redirect = new URL(loginUrlFor(current), 'http://localhost').searchParams.get('redirect')
    expect(safeRedirectPath(redirect)).toBe(current)
  })
})

/** A finished sign-in never lands on a sign-in page: that looked as if the sign-in had failed. */
describe('afterSignInPath', () => {
  it.each([
    '/login',
    '/login?redirect=%2Fprofile',
    '/login/fastlogin',
    '/login_by_password',
    '/login_by_password?mode=register',
    '/login_by_wechat',
    '/wx_auth?error=denied',
    '/login/',
    '/LOGIN_BY_PASSWORD',
    '/bind_mobile',
    '/bind_mobile?redirect=%2Flogin_by_password',
  ])('turns the sign-in page %s into /', (input) => {
    expect(afterSignInPath(input)).toBe('/')
  })

  it('unwraps /bind_mobile to where it leads', () => {
    expect(afterSignInPath('/bind_mobile?redirect=%2Fprofile')).toBe('/profile')
    expect(afterSignInPath(`/bind_mobile?redirect=${encodeURIComponent('/bind_mobile?redirect=/my_cards')}`)).toBe('/my_cards')
    expect(afterSignInPath('/bind_mobile?redirect=%2F%2Fevil.com')).toBe('/')
  })

  it.each(['/profile', '/my_cards?page=2', '/login_history', '/loginx', '/mj'])('keeps %s', (input) => {
    expect(afterSignInPath(input)).toBe(input)
  })

  it('is as strict as safeRedirectPath about other sites', () => {
    expect(afterSignInPath('//evil.com/login')).toBe('/')
    expect(afterSignInPath('https://evil.com/profile')).toBe('/')
  })

  it('knows the sign-in pages', () => {
    expect(isSignInPath('/login_by_password?redirect=%2F')).toBe(true)
    expect(isSignInPath('/profile')).toBe(false)
  })
})

describe('loginUrlFor on a sign-in page', () => {
  it('carries no redirect back to the sign-in page itself', () => {
    expect(loginUrlFor('/login_by_password')).toBe('/login')
    expect(loginUrlFor('/login?redirect=%2Flogin')).toBe('/login')
    expect(loginUrlFor('/')).toBe('/login')
  })
})
