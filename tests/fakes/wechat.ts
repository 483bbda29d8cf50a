// A fake WeChat OAuth (open.weixin.qq.com + api.weixin.qq.com, docs/PROTOCOLS.md §5):
// the authorize page (inside WeChat only, parameters in the documented order) and the
// Open Platform qrconnect page redirect straight back with a code, as if the user had
// agreed; the code is single use and lives 5 minutes; /sns/oauth2/access_token checks
// appid, secret and code; /sns/userinfo checks the access token and openid. Errors are
// {errcode, errmsg} with HTTP 200, like the real API.
import { randomBytes } from 'node:crypto'
import type http from 'node:http'
import { fakePng, jsonBody, record, sendJson, sendText, startServer, type RecordedRequest } from './common'

/** The WeChat user who "agrees" on the authorize page. */
export type WechatPerson = {
  /** The openid for every app unless openidByApp names another. */
  openid: string
  unionid?: string
  nickname: string
  headimgurl?: string
  /** Opened in 快照页 mode: the identity WeChat reports is virtual. */
  snapshot?: boolean
  openidByApp?: Record<string, string>
}

export type FakeWechatOptions = {
  /** appid → AppSecret of every app the fake knows (公众号 and website apps). */
  apps: Record<string, string>
  person: WechatPerson
  /** The user taps 拒绝: the redirect carries the state but no code. */
  deny?: boolean
  /** Hosts allowed in redirect_uri (网页授权域名); any when unset. */
  redirectHosts?: string[]
}

type Grant = { appId: string; person: WechatPerson; scope: string; issuedAt: number; used: boolean }
type AccessToken = { appId: string; openid: string; person: WechatPerson; scope: string; issuedAt: number }

const CODE_TTL_MS = 5 * 60 * 1000
const TOKEN_TTL_MS = 7200 * 1000
const AUTHORIZE_ORDER = ['appid', 'redirect_uri', 'response_type', 'scope', 'state']

export type FakeWechat = Awaited<ReturnType<typeof startFakeWechat>>

export async function startFakeWechat(initial: FakeWechatOptions) {
  const options: FakeWechatOptions = { ...initial }
  const calls: RecordedRequest[] = []
  const grants = new Map<string, Grant>()
  const tokens = new Map<string, AccessToken>()
  let offsetMs = 0
  const now = () => Date.now() + offsetMs

  const rid = () => `${randomBytes(4).toString('hex')}-${randomBytes(4).toString('hex')}`
  // WeChat answers the sns API as text/plain JSON, errors included, with HTTP 200.
  const answer = (res: http.ServerResponse, body: object) => sendText(res, 200, JSON.stringify(body), 'text/plain')
  const wxError = (res: http.ServerResponse, errcode: number, errmsg: string) => answer(res, { errcode, errmsg: `${errmsg}, rid: ${rid()}` })
  const errorPage = (res: http.ServerResponse, text: string) =>
    sendText(res, 200, `<!DOCTYPE html><html><body><h2>Oops! Something went wrong:(</h2><p>${text}</p></body></html>`)
  const openidFor = (person: WechatPerson, appId: string) =>
    person.snapshot ? `o_snapshot_${appId.slice(-4)}` : (person.openidByApp?.[appId] ?? person.openid)

  function authorizePage(req: http.IncomingMessage, res: http.ServerResponse, url: URL, scopes: string[], insideWechatOnly: boolean) {
    const params = url.searchParams
    if (insideWechatOnly && !/MicroMessenger/i.test(req.headers['user-agent'] ?? ''))
      return sendText(res, 200, '<html><body><p>请在微信客户端打开链接</p></body></html>')
    if (JSON.stringify([...params.keys()]) !== JSON.stringify(AUTHORIZE_ORDER)) return errorPage(res, '参数错误')
    const appId = params.get('appid')!
    if (!(appId in options.apps)) return errorPage(res, '10016 appid参数错误')
    if (params.get('response_type') !== 'code') return errorPage(res, '参数错误')
    if (!scopes.includes(params.get('scope')!)) return errorPage(res, '10005 此公众号并没有这些scope的权限')
    let redirect: URL
    try {
      redirect = new URL(params.get('redirect_uri')!)
    } catch {
      return errorPage(res, '10003 redirect_uri参数错误')
    }
    if (options.redirectHosts && !options.redirectHosts.includes(redirect.host)) return errorPage(res, '10003 redirect_uri域名与后台配置不一致')
    const state = params.get('state')!
    if (!/^[a-zA-Z0-9]{0,128}$/.test(state)) return errorPage(res, '参数错误')
    if (!options.deny) {
      const code = randomBytes(16).toString('hex')
      grants.set(code, { appId, person: { ...options.person }, scope: params.get('scope')!, issuedAt: now(), used: false })
      redirect.searchParams.set('code', code)
    }
    redirect.searchParams.set('state', state)
    res.writeHead(302, { location: redirect.toString() })
    res.end()
  }

  function accessToken(res: http.ServerResponse, params: URLSearchParams) {
    const appId = params.get('appid') ?? ''
    if (!(appId in options.apps)) return wxError(res, 40013, 'invalid appid')
    if (params.get('secret') !== options.apps[appId]) return wxError(res, 40125, 'invalid appsecret')
    if (params.get('grant_type') !== 'authorization_code') return wxError(res, 40002, 'invalid grant_type')
    const code = params.get('code') ?? ''
    if (!code) return wxError(res, 41008, 'missing code')
    const grant = grants.get(code)
    if (!grant || grant.appId !== appId || now() - grant.issuedAt > CODE_TTL_MS) return wxError(res, 40029, 'invalid code')
    if (grant.used) return wxError(res, 40163, 'code been used')
    grant.used = true
    const token = randomBytes(24).toString('hex')
    const openid = openidFor(grant.person, appId)
    tokens.set(token, { appId, openid, person: grant.person, scope: grant.scope, issuedAt: now() })
    answer(res, {
      access_token: token,
      expires_in: 7200,
      refresh_token: randomBytes(24).toString('hex'),
      openid,
      scope: grant.scope,
      ...(grant.person.snapshot ? { is_snapshotuser: 1 } : {}),
      ...(grant.person.unionid && !grant.person.snapshot ? { unionid: grant.person.unionid } : {}),
    })
  }

  function userInfo(res: http.ServerResponse, params: URLSearchParams) {
    const token = tokens.get(params.get('access_token') ?? '')
    if (!token) return wxError(res, 40001, 'invalid credential, access_token is invalid or not latest')
    if (now() - token.issuedAt > TOKEN_TTL_MS) return wxError(res, 42001, 'access_token expired')
    if (params.get('openid') !== token.openid) return wxError(res, 40003, 'invalid openid')
    if (token.scope === 'snsapi_base') return wxError(res, 48001, 'api unauthorized')
    const { person } = token
    answer(res, {
      openid: token.openid,
      nickname: person.snapshot ? '微信用户' : person.nickname,
      sex: 0,
      language: '',
      city: '',
      province: '',
      country: '',
      headimgurl: person.snapshot ? '' : (person.headimgurl ?? ''),
      privilege: [],
      ...(person.unionid && !person.snapshot ? { unionid: person.unionid } : {}),
    })
  }

  const fake = await startServer(async (req, res, url, raw) => {
    record(calls, req, url, jsonBody(raw))
    const path = url.pathname
    if (req.method === 'GET' && path === '/connect/oauth2/authorize') return authorizePage(req, res, url, ['snsapi_base', 'snsapi_userinfo'], true)
    if (req.method === 'GET' && path === '/connect/qrconnect') return authorizePage(req, res, url, ['snsapi_login'], false)
    if (req.method === 'GET' && path === '/sns/oauth2/access_token') return accessToken(res, url.searchParams)
    if (req.method === 'GET' && path === '/sns/userinfo') return userInfo(res, url.searchParams)
    if (req.method === 'GET' && path.startsWith('/avatar/')) {
      const png = await fakePng(path.length * 7919, 64)
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
      return res.end(png)
    }
    // Test control, for a browser test that runs in another process.
    if (req.method === 'POST' && path === '/__fake/person') {
      options.person = jsonBody(raw) as WechatPerson
      return sendJson(res, 200, { ok: true })
    }
    if (req.method === 'POST' && path === '/__fake/deny') {
      options.deny = (jsonBody(raw) as { deny: boolean }).deny
      return sendJson(res, 200, { ok: true })
    }
    return wxError(res, 40066, 'invalid url')
  })

  return {
    url: fake.url,
    calls,
    close: fake.close,
    setPerson(person: WechatPerson) {
      options.person = person
    },
    setDeny(deny: boolean) {
      options.deny = deny
    },
    /** Moves the fake's clock forward (codes and tokens expire). */
    advance(ms: number) {
      offsetMs += ms
    },
    avatarUrl: (name: string) => `${fake.url}/avatar/${name}.png`,
  }
}
