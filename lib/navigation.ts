/**
 * The pages the navigation offers. Only pages that exist are listed; each feature
 * adds its own entry when it lands.
 */
export type NavItem = { href: string; label: string; description?: string }

export const MAIN_NAV: NavItem[] = [{ href: '/', label: '首页' }]

/** The user menu (signed in). */
export const USER_MENU: NavItem[] = [
  { href: '/profile', label: '个人资料', description: '昵称、头像与登录密码' },
  { href: '/account', label: '我的账户', description: '余额、积分与收支明细' },
  { href: '/my_cards', label: '我的卡密', description: '兑换卡密，查看已有卡密' },
]

export const ADMIN_NAV: NavItem[] = [
  { href: '/admin/user_mana', label: '用户管理' },
  { href: '/admin/cards_mana', label: '卡密管理' },
  { href: '/admin/site_config', label: '站点配置' },
]
