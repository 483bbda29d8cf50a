'use client'

import { useEffect, useRef, useState } from 'react'
import type { ApiError } from '@/lib/api-client/request'
import { useScanTicket } from '@/lib/api-client/resources/wechat'
import { WECHAT_MESSAGES } from '@/lib/auth/wechat/messages'
import { Spinner } from '@/components/ui/spinner'
import { Panel, messageOf } from './auth-panel'
import { useInviteCode } from './use-invite-code'
import { useIsWechatBrowser, wechatAuthorizeLink } from './wechat-links'

/**
 * The phone side of the desktop QR login, first step: checks the ticket, then lets WeChat
 * say who holds the phone. Nothing is confirmed here; the callback page shows where the
 * login was started and asks (WechatTicketApproval).
 */
export function WechatTicketScan({ ticketId, from }: { ticketId: string; from: string | null }) {
  const isWechat = useIsWechatBrowser()
  const [failure, setFailure] = useState<string | null>(from ? null : WECHAT_MESSAGES['ticket-invalid'])
  const checked = useRef(false)
  const { mutateAsync: scan } = useScanTicket()
  const invite = useInviteCode()
  const link = wechatAuthorizeLink('ticket', { ticket: ticketId, from: from ?? undefined, invite })

  useEffect(() => {
    if (!isWechat || !from || checked.current) return
    checked.current = true
    scan(ticketId)
      .then(() => window.location.replace(link))
      .catch((e: ApiError) => setFailure(messageOf(e)))
  }, [isWechat, ticketId, from, link, scan])

  if (isWechat === false) {
    return (
      <Panel title="请用微信扫码">
        <p className="text-sm leading-relaxed text-zinc-300">请使用微信“扫一扫”扫描电脑上的二维码完成登录。</p>
      </Panel>
    )
  }
  if (failure) {
    return (
      <Panel title="无法登录">
        <p role="alert" className="text-sm leading-relaxed text-zinc-300">
          {failure}
        </p>
      </Panel>
    )
  }
  return (
    <Panel title="登录确认">
      <p className="flex items-center gap-2 text-sm text-zinc-300">
        <Spinner className="size-4" />
        正在获取你的微信身份…
      </p>
    </Panel>
  )
}
