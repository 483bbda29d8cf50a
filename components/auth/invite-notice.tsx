'use client'

import { useInviteCode } from './use-invite-code'

/** Says that this sign-up comes with an invite code (it binds the inviter when the account is created). */
export function InviteNotice() {
  const invite = useInviteCode()
  if (!invite) return null
  return (
    <p data-testid="invite-notice" className="mt-4 rounded-xl bg-brand-500/10 px-4 py-3 text-sm text-brand-200 ring-1 ring-brand-500/30">
      你正在通过邀请码 <span className="font-mono font-semibold">{invite.toUpperCase()}</span> 注册，新账号将自动绑定邀请人
    </p>
  )
}
