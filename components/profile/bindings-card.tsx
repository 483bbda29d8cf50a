'use client'

import Link from 'next/link'
import type { Json } from '@/lib/api-client/hooks'
import { maskMobile } from '@/lib/users/mobile'
import type { Profile } from '@/lib/users/user-views'
import { Badge, Card } from '@/components/ui/card'

/** The sign-in methods bound to the account: phone (bindable here) and WeChat (bound inside WeChat). */
export function BindingsCard({ profile }: { profile: Json<Profile> }) {
  return (
    <Card>
      <h2 className="mb-4 text-base font-medium text-white">账号绑定</h2>
      <dl className="divide-y divide-zinc-800 text-sm">
        <div className="flex items-center justify-between gap-4 py-3">
          <dt className="text-zinc-300">手机号</dt>
          <dd className="flex items-center gap-3">
            {profile.mobile ? (
              <span className="text-zinc-400">{maskMobile(profile.mobile)}</span>
            ) : (
              <Link href="/bind_mobile?redirect=%2Fprofile" className="text-brand-300 hover:text-brand-200">
                去绑定
              </Link>
            )}
          </dd>
        </div>
        <div className="flex items-center justify-between gap-4 py-3">
          <dt className="text-zinc-300">微信</dt>
          <dd className="text-right">{profile.oauth.hasOpenId ? <Badge tone="green">已绑定</Badge> : <span className="text-zinc-500">未绑定</span>}</dd>
        </div>
      </dl>
      {!profile.oauth.hasOpenId && <p className="mt-2 text-xs text-zinc-500">在微信中打开本站时会自动绑定微信。</p>}
    </Card>
  )
}
