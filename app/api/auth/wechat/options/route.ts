// GET /api/auth/wechat/options: whether WeChat sign-in is available here and whether the Open Platform QR login is offered.
import { route } from '@/lib/http/route'
import { wechatLoginOptions } from '@/lib/auth/wechat/wechat-config'

export const GET = route({ access: 'public' }, () => wechatLoginOptions())
