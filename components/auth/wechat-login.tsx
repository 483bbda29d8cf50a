'use client'

import { useWechatOptions } from '@/lib/api-client/resources/wechat'
import { RETURN_PATH_KEY } from '@/lib/app-start/rules'
import { Loading } from '@/components/ui/spinner'
import { OtherSignInLink } from './other-sign-in-link'
import { TermsNotice } from './terms-consent'
import { useInviteCode } from './use-invite-code'
import { useRedirectParam } from './use-redirect-param'
import { WechatQrLogin } from './wechat-qr-login'
import { useIsWechatBrowser, wechatAuthorizeLink } from './wechat-links'

/** /login_by_wechat: inside WeChat, one tap to WeChat's authorization; elsewhere, a QR code to scan with WeChat. Both under the terms notice. */
export function WechatLogin() {
  const isWechat = useIsWechatBrowser()
  const options = useWechatOptions()

  return (
    <div>
      <h1 className="text-xl font-semibold text-white">微信登录</h1>
      {!options.data || isWechat === undefined ? (
        options.isError ? (
          <Notice>暂时无法获取微信登录配置，请稍后再试。</Notice>
        ) : (
          <Loading />
        )
      ) : !options.data.available ? (
        <Notice>{options.data.message}</Notice>
      ) : isWechat ? (
        <InWechat />
      ) : (
        <div className="space-y-4">
          <WechatQrLogin openPlatform={options.data.openPlatform} />
          <TermsNotice action="扫码登录" />
        </div>
      )}
      <OtherSignInLink />
    </div>
  )
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="mt-4 rounded-xl bg-zinc-950/60 p-4 text-sm leading-relaxed text-zinc-300 ring-1 ring-zinc-800">
      {children}
    </p>
  )
}

/**
 * Inside WeChat the authorization needs no QR code: one tap, after the terms notice (an
 * automatic redirect would create an account before anyone could read it).
 */
function InWechat() {
  const { target } = useRedirectParam()
  const invite = useInviteCode()
  const link = wechatAuthorizeLink('login', { returnPath: target, invite })
  return (
    <div className="mt-6 space-y-4 text-center">
      <a
        href={link}
        onClick={() => sessionStorage.setItem(RETURN_PATH_KEY, target)}
        className="inline-flex h-12 w-full items-center justify-center rounded-lg bg-[#07c160] text-base font-medium text-white hover:brightness-110"
      >
        微信授权登录
      </a>
      <TermsNotice />
    </div>
  )
}
