import type { Role } from '@/lib/generated/prisma/enums'

/**
 * Who may do what (docs/PRODUCT.md §6). Small pure predicates, used by route handlers
 * for security and by pages for the experience.
 */
export const ROLES = ['ADMIN', 'MANAGER', 'USER'] as const satisfies readonly Role[]

export const canEnterAdmin = (role: Role) => role === 'ADMIN' || role === 'MANAGER'
/** Roles, balances and points of users, site-config writes and secrets: ADMIN only. */
export const isAdmin = (role: Role) => role === 'ADMIN'

/** A MANAGER manages plain users only; an ADMIN manages everyone. */
export function canManageUser(actor: Role, target: Role): boolean {
  if (actor === 'ADMIN') return true
  return actor === 'MANAGER' && target === 'USER'
}

/** Which roles an actor may give to a user it creates or edits. */
export function assignableRoles(actor: Role): Role[] {
  if (actor === 'ADMIN') return ['ADMIN', 'MANAGER', 'USER']
  if (actor === 'MANAGER') return ['USER']
  return []
}
