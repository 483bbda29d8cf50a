import { describe, expect, it } from 'vitest'
import { ROLES, assignableRoles, canEnterAdmin, canManageUser, isAdmin } from '@/lib/auth/permissions'
import type { Role } from '@/lib/generated/prisma/enums'

/** docs/PRODUCT.md §6 "Roles and permissions": ADMIN everything; MANAGER the admin console with limits; USER none. */
describe('roles', () => {
  it('are exactly ADMIN, MANAGER, USER (docs/PRODUCT.md §3.2)', () => {
    expect([...ROLES]).toEqual(['ADMIN', 'MANAGER', 'USER'])
  })

  it('canEnterAdmin: ADMIN and MANAGER only', () => {
    expect(canEnterAdmin('ADMIN')).toBe(true)
    expect(canEnterAdmin('MANAGER')).toBe(true)
    expect(canEnterAdmin('USER')).toBe(false)
  })

  it('isAdmin: ADMIN only', () => {
    expect(isAdmin('ADMIN')).toBe(true)
    expect(isAdmin('MANAGER')).toBe(false)
    expect(isAdmin('USER')).toBe(false)
  })

  it('unknown role strings get nothing', () => {
    const bogus = 'SUPERUSER' as Role
    expect(canEnterAdmin(bogus)).toBe(false)
    expect(isAdmin(bogus)).toBe(false)
    expect(assignableRoles(bogus)).toEqual([])
    for (const target of ROLES) expect(canManageUser(bogus, target)).toBe(false)
  })
})

describe('canManageUser', () => {
  const table: Record<Role, Record<Role, boolean>> = {
    ADMIN: { ADMIN: true, MANAGER: true, USER: true },
    MANAGER: { ADMIN: false, MANAGER: false, USER: true },
    USER: { ADMIN: false, MANAGER: false, USER: false },
  }
  for (const actor of ROLES)
    for (const target of ROLES)
      it(`${actor} → ${target}: ${table[actor][target]}`, () => {
        expect(canManageUser(actor, target)).toBe(table[actor][target])
      })
})

describe('assignableRoles', () => {
  it('ADMIN may give any role', () => {
    expect(assignableRoles('ADMIN').sort()).toEqual(['ADMIN', 'MANAGER', 'USER'])
  })
  it('MANAGER may only give USER (never raise anyone to its own level or above)', () => {
    expect(assignableRoles('MANAGER')).toEqual(['USER'])
  })
  it('USER may give none', () => {
    expect(assignableRoles('USER')).toEqual([])
  })
  it('a role an actor may assign is always one it may manage', () => {
    for (const actor of ROLES) for (const role of assignableRoles(actor)) expect(canManageUser(actor, role)).toBe(true)
  })
  it('returns a fresh array each time', () => {
    const a = assignableRoles('ADMIN')
    a.pop()
    expect(assignableRoles('ADMIN')).toHaveLength(3)
  })
})
