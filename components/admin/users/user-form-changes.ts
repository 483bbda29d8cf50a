import type { UserRow } from '@/lib/api-client/resources/admin-users'
import type { Role } from '@/lib/generated/prisma/enums'

export type UserFormValues = { name: string; role: Role; mobile: string; banned: boolean; password: string }

/** What the user form starts with: the row being edited, or blanks for a new user. */
export function startingValues(user: UserRow | null): UserFormValues {
  return { name: user?.name ?? '', role: user?.role ?? 'USER', mobile: user?.mobile ?? '', banned: Boolean(user?.bannedAt), password: '' }
}

/**
 * The edit to send: only the fields changed since the form started. The form shows the
 * row as the list loaded it; sending the untouched fields too would undo a ban, a
 * phone binding or a rename someone made in the meantime.
 */
export function changedFields(start: UserFormValues, form: UserFormValues): Partial<UserFormValues> {
  const name = form.name.trim()
  const mobile = form.mobile.trim()
  return {
    ...(name !== start.name ? { name } : {}),
    ...(form.role !== start.role ? { role: form.role } : {}),
    ...(mobile !== start.mobile ? { mobile } : {}),
    ...(form.banned !== start.banned ? { banned: form.banned } : {}),
    ...(form.password ? { password: form.password } : {}),
  }
}
