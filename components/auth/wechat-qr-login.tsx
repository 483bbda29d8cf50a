'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { isRefusal, type ApiError } from '@/lib/api-client/request'
import { useCreateLoginTicket, useLoginTicketPoll, type LoginTicket } from '@/lib/api-client/resources/wechat'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useInviteCode } from './use-invite-code'
import { useRedirectParam } from './use-redirect-param'
import { useSignIn } from './use-sign-in'
import { wechatAuthorizeLink } from './wechat-links'

/** Polls at most every 2 seconds (the bound), so a confirmation shows up quickly. */
const POLL_MS = 1500

/** The desktop side of the QR login: a ticket's QR code, polled until the phone confirms. */
export function WechatQrLogin({ openPlatform }: { openPlatform: boolean }) {
  const { target } = useRedirectParam()
  const invite = useInviteCode()
  const signIn = useSignIn()
  const [ticket, setTicket] = useState<LoginTicket | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [hasTimedOut, setTimedOut] = useState(false)
  const signingIn = useRef(false)
  const { mutateAsync: createTicket } = useCreateLoginTicket(invite)

  const load = useCallback(async () => {
    try {
      setTicket(await createTicket())
    } catch (error) {
      setFailure((error as ApiError).message)
    }
  }, [createTicket])

  const refresh = () => {
    setFailure(null)
    setTimedOut(false)
    setTicket(null)
    void load()
  }

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first ticket is asked for once on mount; state is set when the request answers, not during the effect
    void load()
  }, [load])

  // The ticket's life, counted here: stale even if a poll never answers.
  useEffect(() => {
    if (!ticket) return
    const timer = setTimeout(() => setTimedOut(true), ticket.expiresInSeconds * 1000)
    return () => clearTimeout(timer)
  }, [ticket])

  const poll = useLoginTicketPoll(ticket, !hasTimedOut, POLL_MS)
  const status = poll.data?.status
  const token = poll.data?.token ?? null
  const refused = isRefusal(poll.error) ? poll.error : null
  const isStale = hasTimedOut || status === 'EXPIRED' || status === 'CONSUMED' || refused?.status === 404
  // Refused for another reason (a banned account, say): its words, and a new QR code to try again.
  const problem = failure ?? (refused && refused.status !== 404 ? refused.message : null)

  useEffect(() => {
    if (!token || signingIn.current) return
    signingIn.current = true
    void signIn(token, target)
  }, [token, signIn, target])

  const isSignedIn = Boolean(token)

  return (
    <div className="mt-6 flex flex-col items-center">
      <div className="relative size-52 overflow-hidden rounded-xl bg-white p-2 shadow-lg ring-1 ring-zinc-700">
        {ticket && (
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(ticket.qrSvg)}`}
            alt="微信登录二维码"
            data-scan-url={ticket.scanUrl}
            className="size-full"
          />
        )}
        {!ticket && !failure && (
          <div className="absolute inset-0 flex items-center justify-center text-zinc-500">
            <Spinner className="size-6" />
          </div>
        )}
        {(isStale || problem) && !isSignedIn && (
          <Overlay>
            <p className="text-sm font-medium text-white">{problem ? '二维码获取失败' : '二维码已过期'}</p>
            <Button size="sm" onClick={refresh}>
              刷新二维码
            </Button>
          </Overlay>
        )}
        {!isStale && (status === 'SCANNED' || isSignedIn) && (
          <Overlay>
            <p className="text-sm font-medium text-white">{isSignedIn ? '登录成功' : '已扫码'}</p>
            <p className="px-4 text-center text-xs text-zinc-300">{isSignedIn ? '正在进入…' : '请在手机上确认登录'}</p>
          </Overlay>
        )}
      </div>
      <p role="status" className="mt-4 text-center text-sm text-zinc-400">
        {problem ?? (isStale ? '二维码已过期，请点击刷新' : status === 'SCANNED' ? '已扫码，请在手机上确认登录' : '请使用微信扫一扫登录')}
      </p>
      <p className="mt-1 text-center text-xs text-zinc-500 sm:hidden">在手机上？请在微信中打开本站，即可一键登录</p>
      {openPlatform && (
        <a href={wechatAuthorizeLink('open', { returnPath: target, invite })} className="mt-3 text-sm text-brand-300 hover:text-brand-200">
          使用微信官方扫码登录
        </a>
      )}
    </div>
  )
}

function Overlay({ children }: { children: React.ReactNode }) {
  return <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-zinc-950/85 backdrop-blur-sm">{children}</div>
}
