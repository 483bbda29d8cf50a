'use client'

import { RequireUser } from '@/components/app/require-user'
import { PageTitle } from '@/components/ui/card'
import { AvatarCard } from './avatar-card'
import { BindingsCard } from './bindings-card'
import { NameForm } from './name-form'
import { PasswordForm } from './password-form'

/** /profile: the user's own name, avatar, bound phone and WeChat, and password. */
export function ProfileView() {
  return (
    <RequireUser>
      {(profile) => (
        <div className="mx-auto max-w-2xl">
          <PageTitle>个人资料</PageTitle>
          <div className="space-y-5">
            <AvatarCard profile={profile} />
            <NameForm profile={profile} />
            <BindingsCard profile={profile} />
            <PasswordForm profile={profile} />
          </div>
        </div>
      )}
    </RequireUser>
  )
}
