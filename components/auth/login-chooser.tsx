'use client'

import Link from 'next/link'
import type { ReactNode } from 'react'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { ChatIcon, KeyIcon, PhoneIcon } from '@/components/ui/icons'
import { InviteNotice } from './invite-notice'
import { useInviteCode } from './use-invite-code'
import { useRedirectParam } from './use-redirect-param'

function Option({ href, title, note, icon, disabled }: { href: string; title: string; note: string; icon: ReactNode; disabled?: boolean }) {
  const body = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-zinc-800 text-brand-300">{icon}</span>
      <span className="min-w-0">
        <span className="block font-medium text-white">{title}</span>
        <span className="block text-xs text-zinc-500">{note}</span>
      </span>
    </>
  )
  const cls = 'flex items-center gap-3 rounded-xl p-3 ring-1 ring-zinc-800 transition'
  if (disabled)
    return (
      <div className={`${cls} opacity-60`} aria-disabled="true">
        {body}
      </div>
    )
  return (
    <Link href={href} className={`${cls} hover:bg-zinc-800/60 hover:ring-zinc-700`}>
      {body}
    </Link>
  )
}

/** /login: the ways to sign in this site offers. */
export function LoginChooser() {
  const { data: config } = useSiteInfo()
  const { carry } = useRedirectParam()
  const invite = useInviteCode()
  // An invite link leads on to the sign-up form (the code itself is kept by useInviteCode).
  const query = [carry, invite ? `invite=${encodeURIComponent(invite)}` : ''].filter(Boolean).join('&')
  const withRedirect = (path: string) => (query ? `${path}?${query}` : path)
  const isWechatReady = Boolean(config?.WX_ENABLED && config.WX_APP_ID)
  const isSmsReady = Boolean(config?.SMS_LOGIN_ENABLED)

  return (
    <div>
      <h1 className="text-xl font-semibold text-white">登录</h1>
      <p className="mt-1 text-sm text-zinc-400">选择登录方式</p>
      <InviteNotice />
      <div className="mt-6 space-y-3">
        <Option href={withRedirect('/login_by_password')} title="账号密码登录" note="使用用户名和密码登录或注册" icon={<KeyIcon className="size-5" />} />
        <Option
          href={withRedirect('/login_by_wechat')}
          title="微信登录"
          note={isWechatReady ? '微信扫码或在微信内一键登录' : '本站暂未开启微信登录，请使用其他方式'}
          icon={<ChatIcon className="size-5" />}
          disabled={!isWechatReady}
        />
        <Option
          href={withRedirect('/login/fastlogin')}
          title="手机验证码登录"
          note={isSmsReady ? '未注册的手机号验证后自动创建账号' : '本站暂未开启短信登录，请使用其他方式'}
          icon={<PhoneIcon className="size-5" />}
          disabled={!isSmsReady}
        />
      </div>
    </div>
  )
}
