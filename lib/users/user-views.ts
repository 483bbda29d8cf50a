import type { Role } from '@/lib/generated/prisma/enums'
import type { Listed } from '@/lib/db/read-rows'

/** The columns a profile needs: never the password hash or the token version. */
export const PROFILE_SELECT = {
  id: true,
  username: true,
  name: true,
  avatar: true,
  mobile: true,
  role: true,
  points: true,
  balance: true,
  wxOpenId: true,
  createdAt: true,
} as const

/** docs/PRODUCT.md §3.1 "User info": what /api/users/profile answers. */
export type Profile = {
  id: string
  username: string
  name: string
  avatar: string
  mobile: string | null
  role: Role
  points: number
  /** Cents. */
  balance: number
  oauth: { hasOpenId: boolean }
  createdAt: Date
}

export type ProfileRow = { [K in keyof typeof PROFILE_SELECT]: K extends 'wxOpenId' ? string | null : Profile[Exclude<K, 'wxOpenId'>] }

/** A profile from its columns: createdAt a Date (Prisma) or its ISO text (readRows), as JSON sends both. */
export function toProfile<Row extends ProfileRow | Listed<ProfileRow>>({ wxOpenId, ...rest }: Row): Omit<Row, 'wxOpenId'> & Pick<Profile, 'oauth'> {
  return { ...rest, oauth: { hasOpenId: Boolean(wxOpenId) } }
}

/** A row of the console's user list (agreedTermsAt: when the user agreed to the terms at sign-up, if they did). */
export const ADMIN_USER_SELECT = { ...PROFILE_SELECT, bannedAt: true, updatedAt: true, agreedTermsAt: true } as const
type AdminExtras = { bannedAt: Date | null; updatedAt: Date; agreedTermsAt: Date | null }
export type AdminUserRow = Profile & AdminExtras

export function toAdminUserRow({ bannedAt, updatedAt, agreedTermsAt, ...profile }: ProfileRow & AdminExtras): AdminUserRow {
  return { ...toProfile(profile), bannedAt, updatedAt, agreedTermsAt }
}
