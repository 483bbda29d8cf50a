import { z } from '@/lib/zod'
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
/**
 * A picture's address: a path on this site or an http(s) URL. `//host` and `/\host` are
 * other sites to a browser (and whitespace inside is dropped by it), so a path must be
 * a plain one: the logo also becomes the favicon redirect and the page icon.
 */
export function isImageAddress(value: string): boolean {
  if (value === '') return true
  if (/[\s\\]/.test(value.replace(/^https?:\/\//, ''))) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  return /^https?:\/\/[^/]/.test(value)
}
const imageUrl = z.string().trim().max(500).refine(isImageAddress, '请输入以 / 开头的本站路径或 http(s):// 开头的地址')
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
    url: imageUrl,
    boolean: z.boolean(),
    integer: integer(0, 1_000_000_000),
  }
  return { ...entry, schema: entry.schema ?? schemaByType[entry.type] }
}

export const CONFIG_GROUPS = ['基本信息', '注册与登录', '用户协议与隐私政策', '微信', '短信', '生成', '提示词翻译', '内容安全', '卡密'] as const

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
}
