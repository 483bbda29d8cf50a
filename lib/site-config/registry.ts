import { imageAddress, z } from '@/lib/zod'
import { isKeyText } from '@/lib/crypto/rsa-keys'
import { DEFAULT_PRIVACY_POLICY, DEFAULT_USER_AGREEMENT, LEGAL_HELP } from './legal-defaults'

/**
 * Every site setting the app knows. `public` ones are sent to every browser by
 * /api/site-config/site-info; `admin` ones only to the console; `secret` ones are
 * encrypted at rest and only ever shown masked.
 */
export type Visibility = 'public' | 'admin' | 'secret'
export type ConfigType = 'string' | 'text' | 'url' | 'boolean' | 'integer'

export type ConfigDefinition = {
  name: string
  group: string
  label: string
  help?: string
  type: ConfigType
  visibility: Visibility
  defaultValue: string | number | boolean
  schema: z.ZodType
}

const text = (max: number) => z.string().trim().max(max, `最多 ${max} 个字符`)
const integer = (min: number, max: number) => z.number().int('请输入整数').min(min).max(max)

/** A WeChat AppID (公众号 or 开放平台), or empty while not set. */
const wechatAppId = z
  .string()
  .trim()
  .regex(/^(wx[0-9a-f]{16})?$/, 'AppID 形如 wx 加 16 位十六进制字符')

function define(entry: Omit<ConfigDefinition, 'schema'> & { schema?: z.ZodType }): ConfigDefinition {
  const schemaByType: Record<ConfigType, z.ZodType> = {
    string: text(200),
    text: text(2000),
    url: imageAddress,
    boolean: z.boolean(),
    integer: integer(0, 1_000_000_000),
  }
  return { ...entry, schema: entry.schema ?? schemaByType[entry.type] }
}

export const CONFIG_GROUPS = [
  '基本信息',
  '注册与登录',
  '用户协议与隐私政策',
  '微信',
  '短信',
  '生成',
  '提示词翻译',
  '内容安全',
  '卡密',
  '支付',
  '视频素材',
  '积分',
] as const

/** A key pasted from a merchant console: PEM (PKCS#1, PKCS#8, SPKI) or the bare base64 inside it. */
const rsaKey = (kind: 'private' | 'public') =>
  z
    .string()
    .trim()
    .max(8000, '密钥过长')
    .refine(
      (v) => isKeyText(v, kind),
      kind === 'private' ? '不是有效的 RSA 私钥（支持 PEM 或去掉首尾行的 base64）' : '不是有效的 RSA 公钥（支持 PEM 或去掉首尾行的 base64）',
    )
const cents = (min: number, max: number) => integer(min, max)

/** docs/PRODUCT.md §14: the merchants and what the wallet offers. */
const PAYMENT_SETTINGS: readonly ConfigDefinition[] = [
  define({
    name: 'WXPAY_ENABLED',
    group: '支付',
    label: '启用微信支付',
    help: '需先填好下面的微信支付商户配置；通知地址为 站点地址 + /api/pay/wechat/notify，微信要求生产环境使用 https',
    type: 'boolean',
    visibility: 'public',
    defaultValue: false,
  }),
  define({
    name: 'WXPAY_APP_ID',
    group: '支付',
    label: '微信支付 AppID',
    help: '与商户号绑定的公众号 AppID（JSAPI 支付用它）',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: wechatAppId,
  }),
  define({
    name: 'WXPAY_MCH_ID',
    group: '支付',
    label: '微信支付商户号',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^(\d{8,12})?$/, '商户号为 8-12 位数字'),
  }),
  define({
    name: 'WXPAY_MCH_SERIAL_NO',
    group: '支付',
    label: '商户 API 证书序列号',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^([0-9A-Fa-f]{8,64})?$/, '证书序列号为十六进制字符'),
  }),
  define({
    name: 'WXPAY_MCH_PRIVATE_KEY',
    group: '支付',
    label: '商户 API 私钥（apiclient_key.pem）',
    type: 'text',
    visibility: 'secret',
    defaultValue: '',
    schema: rsaKey('private'),
  }),
  define({
    name: 'WXPAY_API_V3_KEY',
    group: '支付',
    label: 'APIv3 密钥',
    help: '商户平台“API安全”中设置的 32 位密钥，用于解密支付通知',
    type: 'string',
    visibility: 'secret',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^([\x21-\x7e]{32})?$/, 'APIv3 密钥为 32 个字符'),
  }),
  define({
    name: 'WXPAY_PUBLIC_KEY_ID',
    group: '支付',
    label: '微信支付公钥 ID',
    help: '形如 PUB_KEY_ID_ 开头；不填则使用平台证书验签',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^(PUB_KEY_ID_[0-9A-Za-z_]{1,64})?$/, '公钥 ID 以 PUB_KEY_ID_ 开头'),
  }),
  define({
    name: 'WXPAY_PUBLIC_KEY',
    group: '支付',
    label: '微信支付公钥（pub_key.pem）',
    type: 'text',
    visibility: 'admin',
    defaultValue: '',
    schema: rsaKey('public'),
  }),
  define({
    name: 'ALIPAY_ENABLED',
    group: '支付',
    label: '启用支付宝',
    help: '需先填好下面的支付宝应用配置；通知地址为 站点地址 + /api/pay/alipay/notify',
    type: 'boolean',
    visibility: 'public',
    defaultValue: false,
  }),
  define({
    name: 'ALIPAY_APP_ID',
    group: '支付',
    label: '支付宝应用 AppID',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^(\d{10,20})?$/, '支付宝 AppID 为数字'),
  }),
  define({ name: 'ALIPAY_PRIVATE_KEY', group: '支付', label: '应用私钥', type: 'text', visibility: 'secret', defaultValue: '', schema: rsaKey('private') }),
  define({
    name: 'ALIPAY_PUBLIC_KEY',
    group: '支付',
    label: '支付宝公钥',
    help: '开放平台“接口加签方式”中的支付宝公钥（不是应用公钥）',
    type: 'text',
    visibility: 'admin',
    defaultValue: '',
    schema: rsaKey('public'),
  }),
  define({
    name: 'ALIPAY_SELLER_ID',
    group: '支付',
    label: '支付宝商户 PID（可选）',
    help: '2088 开头；填写后会核对支付通知中的 seller_id',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^(2088\d{12})?$/, 'PID 为 2088 开头的 16 位数字'),
  }),
  define({
    name: 'ORDER_EXPIRE_MINUTES',
    group: '支付',
    label: '订单支付时限（分钟）',
    help: '超过时限未支付的订单会在支付平台关闭',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 30,
    schema: integer(5, 1440),
  }),
  define({
    name: 'RECHARGE_MIN_CENTS',
    group: '支付',
    label: '自定义充值最小金额（分）',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 100,
    schema: cents(1, 100_000_000),
  }),
  define({
    name: 'RECHARGE_MAX_CENTS',
    group: '支付',
    label: '自定义充值最大金额（分）',
    help: '设为 0 则不允许自定义金额，只能选择充值档位',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 500_000,
    schema: cents(0, 100_000_000),
  }),
  define({
    name: 'SIGNUP_GIFT_POINTS',
    group: '积分',
    label: '注册赠送积分',
    help: '新用户注册（任何方式）时赠送；0 为不赠送',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 0,
    schema: integer(0, 1_000_000),
  }),
  define({
    name: 'CHECK_IN_POINTS',
    group: '积分',
    label: '每日签到积分',
    help: '每人每天（北京时间）可签到一次；0 为关闭签到',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 5,
    schema: integer(0, 1_000_000),
  }),
]

export const CONFIG_REGISTRY: readonly ConfigDefinition[] = [
  define({
    name: 'name',
    group: '基本信息',
    label: '站点名称',
    help: '显示在页面标题和页眉',
    type: 'string',
    visibility: 'public',
    defaultValue: 'AI 画室',
    schema: text(40).min(1, '站点名称不能为空'),
  }),
  define({
    name: 'logo',
    group: '基本信息',
    label: '站点 Logo',
    help: '图片地址，也用作浏览器图标',
    type: 'url',
    visibility: 'public',
    defaultValue: '/imgs/logo.svg',
  }),
  define({
    name: 'description',
    group: '基本信息',
    label: '站点简介',
    help: '显示在首页',
    type: 'text',
    visibility: 'public',
    defaultValue: '用 AI 把想象变成画面：文生图、图生图、局部重绘、线稿上色。',
  }),
  define({ name: 'icp', group: '基本信息', label: 'ICP 备案号', help: '显示在页脚，留空则不显示', type: 'string', visibility: 'public', defaultValue: '' }),
  define({ name: 'REGISTER_ENABLED', group: '注册与登录', label: '开放用户名注册', type: 'boolean', visibility: 'public', defaultValue: true }),
  define({
    name: 'MOBILE_ENABLED',
    group: '注册与登录',
    label: '要求绑定手机号',
    help: '开启后，未绑定手机号的用户登录后会被引导到绑定页面',
    type: 'boolean',
    visibility: 'public',
    defaultValue: false,
  }),
  define({
    name: 'USER_AGREEMENT',
    group: '用户协议与隐私政策',
    label: '用户协议',
    help: LEGAL_HELP,
    type: 'text',
    visibility: 'admin',
    defaultValue: DEFAULT_USER_AGREEMENT,
    schema: text(20000).min(1, '用户协议不能为空'),
  }),
  define({
    name: 'PRIVACY_POLICY',
    group: '用户协议与隐私政策',
    label: '隐私政策',
    help: LEGAL_HELP,
    type: 'text',
    visibility: 'admin',
    defaultValue: DEFAULT_PRIVACY_POLICY,
    schema: text(20000).min(1, '隐私政策不能为空'),
  }),
  define({ name: 'WX_ENABLED', group: '微信', label: '启用微信登录', type: 'boolean', visibility: 'public', defaultValue: false }),
  define({
    name: 'WX_APP_ID',
    group: '微信',
    label: '公众号 AppID',
    type: 'string',
    visibility: 'public',
    defaultValue: '',
    schema: wechatAppId,
  }),
  define({
    name: 'WX_OPEN_APP_ID',
    group: '微信',
    label: '开放平台网站应用 AppID',
    help: '填写后，电脑端可使用微信官方扫码登录（qrconnect）',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
    schema: wechatAppId,
  }),
  define({
    name: 'WX_OPEN_APP_SECRET',
    group: '微信',
    label: '开放平台网站应用 AppSecret',
    type: 'string',
    visibility: 'secret',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^([0-9a-f]{32})?$/, 'AppSecret 为 32 位十六进制字符'),
  }),
  define({ name: 'SMS_LOGIN_ENABLED', group: '短信', label: '启用手机验证码登录', type: 'boolean', visibility: 'public', defaultValue: false }),
  define({
    name: 'SMS_DAILY_LIMIT',
    group: '短信',
    label: '全站每日短信发送上限',
    help: '按北京时间每天零点重新计数；达到上限后当天不再发送验证码，防止短信费用被刷',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 1000,
    schema: integer(1, 1_000_000),
  }),
  define({
    name: 'SMS_PROVIDER',
    group: '短信',
    label: '短信服务商',
    help: 'log：验证码只写入服务器日志，仅供试用和开发，生产部署中不可用；aliyun：阿里云短信；tencent：腾讯云短信',
    type: 'string',
    visibility: 'admin',
    defaultValue: 'log',
    schema: z.enum(['log', 'aliyun', 'tencent'], { error: '只能是 log、aliyun 或 tencent' }),
  }),
  define({ name: 'ALIYUN_ACCESS_KEY_ID', group: '短信', label: '阿里云 AccessKey ID', type: 'string', visibility: 'admin', defaultValue: '' }),
  define({ name: 'ALIYUN_ACCESS_KEY_SECRET', group: '短信', label: '阿里云 AccessKey Secret', type: 'string', visibility: 'secret', defaultValue: '' }),
  define({ name: 'ALIYUN_SMS_SIGN_NAME', group: '短信', label: '阿里云短信签名', type: 'string', visibility: 'admin', defaultValue: '' }),
  define({
    name: 'ALIYUN_SMS_TEMPLATE_CODE',
    group: '短信',
    label: '阿里云短信模板 CODE',
    help: '模板变量名为 code',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
  }),
  define({ name: 'TENCENT_SECRET_ID', group: '短信', label: '腾讯云 SecretId', type: 'string', visibility: 'admin', defaultValue: '' }),
  define({ name: 'TENCENT_SECRET_KEY', group: '短信', label: '腾讯云 SecretKey', type: 'string', visibility: 'secret', defaultValue: '' }),
  define({ name: 'TENCENT_SMS_SDK_APP_ID', group: '短信', label: '腾讯云短信 SdkAppId', type: 'string', visibility: 'admin', defaultValue: '' }),
  define({ name: 'TENCENT_SMS_SIGN_NAME', group: '短信', label: '腾讯云短信签名', type: 'string', visibility: 'admin', defaultValue: '' }),
  define({
    name: 'TENCENT_SMS_TEMPLATE_ID',
    group: '短信',
    label: '腾讯云短信模板 ID',
    help: '模板的第一个参数为验证码',
    type: 'string',
    visibility: 'admin',
    defaultValue: '',
  }),
  define({ name: 'TENCENT_SMS_REGION', group: '短信', label: '腾讯云地域', type: 'string', visibility: 'admin', defaultValue: 'ap-guangzhou' }),
  define({
    name: 'TRANSLATE_ENABLED',
    group: '提示词翻译',
    label: '提交 MJ 任务前把中文提示词翻译成英文',
    type: 'boolean',
    visibility: 'public',
    defaultValue: false,
  }),
  define({
    name: 'TRANSLATE_API_BASE',
    group: '提示词翻译',
    label: '翻译接口地址',
    help: 'OpenAI 兼容的聊天接口，例如 https://api.openai.com',
    type: 'url',
    visibility: 'admin',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === '' || /^https?:\/\//.test(v), '请输入 http(s):// 开头的地址'),
  }),
  define({ name: 'TRANSLATE_API_KEY', group: '提示词翻译', label: '翻译接口密钥', type: 'string', visibility: 'secret', defaultValue: '' }),
  define({ name: 'TRANSLATE_MODEL', group: '提示词翻译', label: '翻译模型', type: 'string', visibility: 'admin', defaultValue: 'gpt-4o-mini' }),
  define({
    name: 'TASK_MAX_PENDING_PER_USER',
    group: '生成',
    label: '每人同时进行的任务数上限',
    help: '排队和生成中的任务总数，超出时提交会被拒绝（不扣积分）',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 4,
    schema: integer(1, 100),
  }),
  define({
    name: 'BACKEND_OUTAGE_REFUND_SECONDS',
    group: '生成',
    label: '模型不可用时排队任务的最长等待（秒）',
    help: '模型的全部后端都不可用时，排队中的任务最多等这么久（从后端不可用或任务提交时算起），仍未恢复就取消并退还积分',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 120,
    schema: integer(60, 1800),
  }),
  define({
    name: 'VIDEO_LINK_TTL_SECONDS',
    group: '视频素材',
    label: '视频播放与下载链接有效期（秒）',
    help: '签名链接过期后失效，需要重新打开页面获取',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 600,
    schema: integer(5, 86_400),
  }),
  define({
    name: 'VIDEO_MAX_UPLOAD_MB',
    group: '视频素材',
    label: '视频素材上传大小上限（MB）',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 2048,
    schema: integer(1, 51_200),
  }),
  define({
    name: 'AI_MARK_ENABLED',
    group: '内容安全',
    label: '在生成图片上添加“AI生成”角标',
    help: '图片元数据中的隐式标识始终写入',
    type: 'boolean',
    visibility: 'admin',
    defaultValue: true,
  }),
  define({
    name: 'WALL_AUTO_PUBLISH',
    group: '内容安全',
    label: '用户公开的作品直接上作品墙',
    help: '关闭时（默认）用户公开的作品需管理员在“作品墙管理”审核通过后才显示',
    type: 'boolean',
    visibility: 'admin',
    defaultValue: false,
  }),
  define({
    name: 'BANNED_WORDS',
    group: '内容安全',
    label: '违禁词',
    help: '每行一个；提示词包含其中任何一个时拒绝提交，不扣积分',
    type: 'text',
    visibility: 'admin',
    defaultValue: '',
    schema: text(20000),
  }),
  define({
    name: 'CARD_DEFAULT_POINTS',
    group: '卡密',
    label: '每张卡密默认积分',
    help: '批量导入时未填写积分则使用此值',
    type: 'integer',
    visibility: 'admin',
    defaultValue: 100,
    schema: integer(1, 1_000_000),
  }),
  define({
    name: 'WX_APP_SECRET',
    group: '微信',
    label: '公众号 AppSecret',
    type: 'string',
    visibility: 'secret',
    defaultValue: '',
    schema: z
      .string()
      .trim()
      .regex(/^([0-9a-f]{32})?$/, 'AppSecret 为 32 位十六进制字符'),
  }),
  ...PAYMENT_SETTINGS,
]

const byName = new Map(CONFIG_REGISTRY.map((d) => [d.name, d]))

export function findDefinition(name: string): ConfigDefinition | undefined {
  return byName.get(name)
}

export type PublicConfig = {
  name: string
  logo: string
  description: string
  icp: string
  REGISTER_ENABLED: boolean
  MOBILE_ENABLED: boolean
  WX_ENABLED: boolean
  WX_APP_ID: string
  SMS_LOGIN_ENABLED: boolean
  TRANSLATE_ENABLED: boolean
  WXPAY_ENABLED: boolean
  ALIPAY_ENABLED: boolean
}
