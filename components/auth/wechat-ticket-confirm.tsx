'use client'

import { useEffect, useRef, useState } from 'react'
import { useSiteInfo } from '@/lib/api-client/hooks'
import { api, type ApiError } from '@/lib/api-client/request'
import { Spinner } from '@/components/ui/spinner'
import { Panel, messageOf } from './auth-panel'
import { useIsWechatBrowser, wechatAuthorizeLink } from './wechat-links'

/** The phone side of the desktop QR login: checks the ticket, then asks the user to confirm through WeChat. */
export function WechatTicketConfirm({ ticketId }: { ticketId: string }) {
  const isWechat = useIsWechatBrowser()
  const { data: config } = useSiteInfo()
  const [state, setState] = useState<'checking' | 'ready' | { failure: string }>('checking')
  const checked = useRef(false)

  useEffect(() => {
    if (!isWechat || checked.current) return
    checked.current = true
    api
      .post(`/api/auth/wechat/ticket/${encodeURIComponent(ticketId)}/scan`, {}, { silent: true })
      .then(() => setState('ready'))
      .catch((e: ApiError) => setState({ failure: messageOf(e) }))
  }, [isWechat, ticketId])

  if (isWechat === false) {
    return (
      <Panel title="请用微信扫码">
        <p className="text-sm leading-relaxed text-zinc-300">请使用微信“扫一扫”扫描电脑上的二维码完成登录。</p>
      </Panel>
    )
  }
  if (typeof state === 'object') {
    return (
      <Panel title="无法登录">
        <p role="alert" className="text-sm leading-relaxed text-zinc-300">
          {state.failure}
        </p>
      </Panel>
    )
  }
  if (state === 'checking' || isWechat === undefined) {
    return (
      <Panel title="登录确认">
        <p className="flex items-center gap-2 text-sm text-zinc-300">
          <Spinner className="size-4" />
          正在检查二维码…
        </p>
      </Panel>
    )
  }
  return (
    <Panel title="登录确认">
      <p className="text-sm leading-relaxed text-zinc-300">你正在电脑上登录「{config?.name}」，确认后电脑端将登录你的微信账号。</p>
      <p className="mt-2 text-xs text-amber-300/90">如果不是你本人在电脑上扫码，请不要确认。</p>
      <a href={wechatAuthorizeLink('ticket', { ticket: ticketId })} className="mt-6 inline-flex h-12 w-full items-center justify-center rounded-lg bg-[#07c160] text-base font-medium text-white hover:brightness-110">
        确认登录
      </a>
    </Panel>
  )
}
