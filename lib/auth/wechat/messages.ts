/**
 * What the WeChat sign-in says when it cannot go on. Plain strings, shared by the
 * server and the pages: a failed authorize link lands on /wx_auth?error=<key>, and the
 * page shows the text for that key (never text taken from the address).
 */
export const WECHAT_MESSAGES = {
  disabled: '本站未开启微信登录，请使用其他方式登录',
  incomplete: '微信登录尚未配置完成（需要公众号 AppID 和 AppSecret），请联系管理员',
  'no-public-url': '微信登录尚未配置完成（生产部署需要把环境变量 PUBLIC_URL 设为本站的公开地址，例如 https://your.domain），请联系管理员',
  'open-missing': '本站未配置微信开放平台网站应用，请使用页面上的二维码登录',
  'ticket-expired': '二维码已过期，请在电脑上刷新二维码后重新扫描',
  'ticket-used': '二维码已使用，请在电脑上刷新二维码后重新扫描',
  'ticket-unknown': '二维码不存在，请在电脑上刷新二维码后重新扫描',
  'ticket-invalid': '二维码链接不完整，请用微信扫一扫重新扫描电脑上的二维码',
  'ticket-not-yours': '只有生成该二维码的页面可以查询登录结果，请刷新二维码',
  bound: '你的账号已绑定微信',
  throttled: '微信授权请求过于频繁，请稍后再试',
  failed: '暂时无法发起微信授权，请稍后再试',
} as const

export type WechatMessageKey = keyof typeof WECHAT_MESSAGES

/** The key of a known message, for the error redirect of the authorize link. */
export function wechatMessageKey(message: string, status: number): WechatMessageKey {
  if (status === 429) return 'throttled'
  const found = (Object.keys(WECHAT_MESSAGES) as WechatMessageKey[]).find((key) => WECHAT_MESSAGES[key] === message)
  return found ?? 'failed'
}
