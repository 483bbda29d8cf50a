'use client'

import { useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { useRouter, useSearchParams } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import type { ApiError } from '@/lib/api-client/request'
import { profileKeys } from '@/lib/api-client/resources/profile'
import { useWechatCallback } from '@/lib/api-client/resources/wechat'
import { storeToken } from '@/lib/api-client/token-store'
import { RETURN_PATH_KEY, WECHAT_DECLINED_KEY } from '@/lib/app-start/rules'
import { WECHAT_MESSAGES, type WechatMessageKey } from '@/lib/auth/wechat/messages'
import { afterSignInPath, safeRedirectPath } from '@/lib/safe-redirect'
import { toast } from '@/lib/ui/toast-store'
import { Spinner } from '@/components/ui/spinner'
import { Panel, messageOf } from './auth-panel'
import { WechatTicketApproval, type TicketIdentifiedAnswer } from './wechat-ticket-approval'
import { WechatTicketScan } from './wechat-ticket-scan'

/**
 * /wx_auth: where WeChat sends the browser back (code + state), where a desktop QR code
 * leads the phone (ticket + from), and where a failed authorize link explains itself (error).
 */
export function WechatCallback() {
  const params = useSearchParams()
  const code = params.get('code')
  const state = params.get('state')
  const ticket = params.get('ticket')
  const error = params.get('error')

  if (error) {
    const message = WECHAT_MESSAGES[error as WechatMessageKey] ?? WECHAT_MESSAGES.failed
    // A stale QR code is fixed on the computer, not here.
    if (!error.startsWith('ticket-')) return <Failed message={message} />
    return (
      <Panel title="无法登录">
        <p role="alert" className="text-sm leading-relaxed text-zinc-300">
          {message}
        </p>
      </Panel>
    )
  }
  if (ticket && !code) return <WechatTicketScan ticketId={ticket} from={params.get('from')} />
  if (code && state) return <Finish code={code} state={state} />
  if (state) return <Failed message="你已取消微信授权" declined />
  return <Failed message="缺少微信授权参数，请重新发起微信登录" />
}

function Finish({ code, state }: { code: string; state: string }) {
  const [failure, setFailure] = useState<string | null>(null)
  const [identified, setIdentified] = useState<TicketIdentifiedAnswer | null>(null)
  const started = useRef(false)
  const queryClient = useQueryClient()
  const router = useRouter()
  const { mutateAsync: exchange } = useWechatCallback()

  useEffect(() => {
    // A code can be exchanged once: never post it twice (development re-runs effects).
    if (started.current) return
    started.current = true
    exchange({ code, state })
      .then(async (outcome) => {
        if (outcome.kind === 'ticket-identified') return setIdentified(outcome)
        sessionStorage.removeItem(RETURN_PATH_KEY)
        if (outcome.kind === 'login') storeToken(outcome.token)
        else toast.success('微信绑定成功')
        await queryClient.invalidateQueries({ queryKey: profileKeys.all })
        router.replace(afterSignInPath(outcome.returnPath, window.location.origin))
      })
      .catch((e: ApiError) => {
        // Whatever went wrong, the start-up rule must not send this session round again.
        sessionStorage.setItem(WECHAT_DECLINED_KEY, '1')
        setFailure(messageOf(e))
      })
  }, [code, state, queryClient, router, exchange])

  if (identified) return <WechatTicketApproval ticket={identified} />
  if (failure) return <Failed message={failure} />
  return (
    <Panel title="微信登录">
      <p className="flex items-center gap-2 text-sm text-zinc-300">
        <Spinner className="size-4" />
        正在完成微信授权…
      </p>
    </Panel>
  )
}

function Failed({ message, declined }: { message: string; declined?: boolean }) {
  const [back, setBack] = useState('/')
  useEffect(() => {
    if (declined) sessionStorage.setItem(WECHAT_DECLINED_KEY, '1')
    // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only after hydration; reading it during render would not match the server's HTML
    setBack(safeRedirectPath(sessionStorage.getItem(RETURN_PATH_KEY), window.location.origin))
  }, [declined])
  return (
    <Panel title="微信登录未完成">
      <p role="alert" className="text-sm leading-relaxed text-zinc-300">
        {message}
      </p>
      <div className="mt-6 grid grid-cols-2 gap-3">
        <Link
          href={`/login_by_wechat?redirect=${encodeURIComponent(back)}`}
          className="inline-flex h-10 items-center justify-center rounded-lg bg-[#07c160] text-sm font-medium text-white hover:brightness-110"
        >
          重新登录
        </Link>
        <Link
          href={back}
          className="inline-flex h-10 items-center justify-center rounded-lg bg-zinc-800 text-sm font-medium text-zinc-100 ring-1 ring-zinc-700 hover:bg-zinc-700"
        >
          返回
        </Link>
      </div>
    </Panel>
  )
}
