/**
 * The pages the navigation offers. Only pages that exist are listed; each feature
 * adds its own entry when it lands.
 */
export type NavItem = {
  href: string
  label: string
  description?: string
  /** Shown only when something can run it (hasMjModel, hasVideoModel in components/create/use-catalog.ts). */
  needs?: 'mj-model' | 'video-model'
}

export const MAIN_NAV: NavItem[] = [
  { href: '/', label: '首页' },
  { href: '/image_wall', label: '作品墙', description: '大家的作品，点开看提示词，一键做同款' },
  { href: '/showcase', label: '精选合集', description: '站长挑选的作品合集' },
  { href: '/home', label: '探索', description: '按 MJ、SD 分类浏览，按提示词搜索' },
  { href: '/text2img_v2', label: 'AI 创作', description: '文生图、图生图、局部重绘、线稿上色，一页切换' },
  { href: '/text2img', label: '文生图', description: '用文字描述生成图片' },
  { href: '/img_inpaint', label: '局部重绘', description: '涂抹区域，只改你想改的部分' },
  { href: '/img_controlnet', label: '线稿上色', description: '上传线稿，AI 帮你上色' },
  { href: '/mj', label: 'MJ 绘画', description: 'Midjourney：四宫格、放大、变体、局部重绘', needs: 'mj-model' },
  { href: '/ai_video', label: 'AI 视频', description: '文字或图片生成短视频', needs: 'video-model' },
  { href: '/video', label: '视频素材', description: '免费视频素材，在线播放和下载' },
  { href: '/video_buy', label: '付费素材', description: '精选付费视频素材，可批量购买' },
  { href: '/ai_chat', label: 'AI 对话', description: '与大模型聊天：多轮对话、代码与表格' },
]

/** The user menu (signed in). */
export const USER_MENU: NavItem[] = [
  { href: '/profile', label: '个人资料', description: '昵称、头像与登录密码' },
  { href: '/account', label: '我的账户', description: '余额、积分、会员、充值与订单' },
  { href: '/my_cards', label: '我的卡密', description: '兑换卡密，查看已有卡密' },
  { href: '/my/invite', label: '邀请好友', description: '邀请码、邀请链接与佣金' },
]

/** The documents a user agrees to at sign-up (footer, consent line). */
export const LEGAL_LINKS = {
  userAgreement: { href: '/user_agreement', label: '用户协议' },
  privacyPolicy: { href: '/privacy_policy', label: '隐私政策' },
} as const

/** Where an ICP filing number links to (the MIIT filing lookup). */
export const ICP_LOOKUP_URL = 'https://beian.miit.gov.cn/'

export const ADMIN_NAV: NavItem[] = [
  { href: '/admin/user_mana', label: '用户管理' },
  { href: '/admin/task_mana', label: '任务管理' },
  { href: '/admin/model_mana', label: '模型管理' },
  { href: '/admin/custom_model_mana', label: '风格模型' },
  { href: '/admin/chat_model_mana', label: '对话模型' },
  { href: '/admin/prompt_mana', label: '提示词管理' },
  { href: '/admin/image_wall_mana', label: '作品墙管理' },
  { href: '/admin/cards_mana', label: '卡密管理' },
  { href: '/admin/order_mana', label: '订单管理' },
  { href: '/admin/charge_record', label: '充值记录' },
  { href: '/admin/user_charge_record_mana', label: '用户充值' },
  { href: '/admin/subscription_mana', label: '套餐管理' },
  { href: '/admin/video_mana', label: '视频素材' },
  { href: '/admin/video_buy_mana', label: '素材购买' },
  { href: '/admin/invite_mana', label: '邀请管理' },
  { href: '/admin/analysis_mana', label: '数据分析' },
  { href: '/admin/site_config', label: '站点配置' },
]
