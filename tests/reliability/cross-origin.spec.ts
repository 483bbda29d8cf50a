// Cross-origin writes. The API authenticates with a bearer token the page keeps in localStorage,
// never a cookie, so another site's page has no ambient credential to ride on; and the API sends
// no CORS headers, so a browser will not even send another origin's request that carries an
// Authorization header (the preflight fails). Decision: no Origin check is needed on top
// (docs/DECISIONS.md, "Cross-origin writes").
import { registerViaApi, signInWithToken } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const EVIL = 'https://evil.example'

test('another origin cannot write: no CORS grant, no ambient credential, the browser blocks it', async ({ page, request, baseURL }) => {
  const user = await registerViaApi(request)
  const auth = { authorization: `Bearer ${user.token}` }

  // The preflight a browser sends first gets no grant.
  const preflight = await request.fetch('/api/users/profile', {
    method: 'OPTIONS',
    headers: { origin: EVIL, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
  })
  expect(preflight.headers()['access-control-allow-origin']).toBeUndefined()
  expect(preflight.headers()['access-control-allow-credentials']).toBeUndefined()
  // A "simple" cross-site form post carries no credential: refused as anonymous.
  const simple = await request.post('/api/tasks', {
    headers: { origin: EVIL, 'content-type': 'text/plain' },
    data: '{"type":"SD_TEXT2IMG","params":{"prompt":"x"}}',
  })
  expect(simple.status()).toBe(401)
  const patch = await request.patch('/api/users/profile', { headers: { origin: EVIL }, data: { name: 'pwned' } })
  expect(patch.status()).toBe(401)

  // In Chromium: a signed-in user visits another site, whose script tries to write with and without the token.
  await signInWithToken(page, user.token)
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>evil</title>' }))
  await page.goto(`${EVIL}/`)
  const attempts = await page.evaluate(
    async ({ site, token }) => {
      const tries = [
        () =>
          fetch(`${site}/api/users/profile`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: '{"name":"pwned"}',
          }),
        () =>
          fetch(`${site}/api/users/profile`, {
            method: 'PATCH',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: '{"name":"pwned"}',
          }),
        () => fetch(`${site}/api/users/profile`, { credentials: 'include' }),
      ]
      const out: string[] = []
      for (const attempt of tries)
        out.push(
          await attempt().then(
            (r) => `answered ${r.status}`,
            () => 'blocked',
          ),
        )
      return out
    },
    { site: baseURL!, token: 'stolen-token-not-known' },
  )
  // Whatever reached the server went without a credential; nothing was readable by the other site.
  expect(attempts).toEqual(['blocked', 'blocked', 'blocked'])
  const me = (await (await request.get('/api/users/profile', { headers: auth })).json()).data
  expect(me.name).not.toBe('pwned')
  figure('cross-origin write attempts that got through', 0)
})
