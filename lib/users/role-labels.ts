/** How roles read in the interface. */
export const ROLE_LABELS = { ADMIN: '管理员', MANAGER: '运营', USER: '普通用户' } as const
