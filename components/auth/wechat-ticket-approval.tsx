'use client'

import { useState } from 'react'
import type { ApiError } from '@/lib/api-client/request'
import { useConfirmTicket, type TicketIdentifiedAnswer } from '@/lib/api-client/resources/wechat'
import { formatDateTime } from '@/lib/format'
import { Button } from '@/components/ui/button'
import { Panel, messageOf } from './auth-panel'

export type { TicketIdentifiedAnswer }

/**
 * The phone side of the desktop QR login, last step: WeChat has said who holds the phone;
 * before anything is handed to the desktop the user sees where that login was started
 * and confirms it explicitly (a same-origin request with this browser's one-time key).
 */
export function WechatTicketApproval({ ticket }: { ticket: TicketIdentifiedAnswer }) {
  const [result, setResult] = useState<'asking' | 'confirmed' | 'declined' | { failure: string }>('asking')
  const [busy, setBusy] = useState(false)
  const confirmTicket = useConfirmTicket()

  async function confirm() {
    setBusy(true)
    try {
      await confirmTicket.mutateAsync({ id: ticket.ticketId, key: ticket.confirmKey })
      setResult('confirmed')
    } catch (e) {
      setResult({ failure: messageOf(e as ApiError) })
    } finally {
      setBusy(false)
    }
  }

  if (result === 'confirmed') {
    return (
      <Panel title="已确认登录">
        <p className="text-sm text-zinc-300">请回到电脑上继续操作。</p>
      </Panel>
    )
  }
  if (result === 'declined') {
    return (
      <Panel title="已取消登录">
        <p className="text-sm text-zinc-300">电脑端不会登录你的账号，可以关闭本页面。</p>
      </Panel>
    )
  }
  return (
    <Panel title="登录确认">
      <p className="text-sm leading-relaxed text-zinc-300">有一台电脑正在请求登录你的账号「{ticket.name}」。确认后，这台电脑将获得你的账号权限。</p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl bg-zinc-950/60 p-4 text-sm ring-1 ring-zinc-800">
        <dt className="text-zinc-500">电脑 IP</dt>
        <dd data-testid="ticket-desktop-ip" className="break-all text-zinc-100">
          {ticket.desktop.ip}
        </dd>
        <dt className="text-zinc-500">浏览器</dt>
        <dd data-testid="ticket-desktop-browser" className="text-zinc-100">
          {ticket.desktop.browser}
        </dd>
        <dt className="text-zinc-500">发起时间</dt>
        <dd data-testid="ticket-desktop-created" className="text-zinc-100">
          {formatDateTime(ticket.desktop.createdAt)}
        </dd>
      </dl>
      <p role="note" className="mt-3 text-xs leading-relaxed text-amber-300/90">
        请确认是你本人刚刚在这台电脑上扫码。如果二维码是别人发给你的，或你不认识这台电脑，请不要确认，否则对方将登录你的账号。
      </p>
      {typeof result === 'object' && (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {result.failure}
        </p>
      )}
      <div className="mt-6 grid grid-cols-2 gap-3">
        <Button variant="secondary" size="lg" disabled={busy} onClick={() => setResult('declined')}>
          取消
        </Button>
        <Button size="lg" loading={busy} onClick={confirm}>
          确认登录
        </Button>
      </div>
    </Panel>
  )
}
