'use client'

import { useMemo, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client/request'
import { useCreateOrder, type CreatedOrder, type PayChannel } from '@/lib/api-client/resources/orders'
import { useRefreshVideos, type VideoListItem } from '@/lib/api-client/resources/videos'
import { useWallet } from '@/lib/api-client/resources/wallet'
import { formatCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { Loading } from '@/components/ui/spinner'
import { CHANNEL_LABELS } from '@/components/payments/labels'
import { detectPayEnv, mayHaveOrdered, newIdempotencyKey, paymentFields } from '@/components/payments/pay-env'
import { PaymentProgress } from '@/components/payments/payment-progress'
import { currentReturnPath } from '@/components/payments/return-path'
import { startPayment } from '@/components/payments/start-payment'

/**
 * 购买 one item (BUY_VIDEO_MATERIAL) or several (BATCH_BUY_VIDEO_MATERIAL): the items and the
 * total left to pay (bought ones are left out), the way to pay, then the order's progress
 * (the same PaymentProgress as 充值 on /account).
 */
export function VideoPayDialog({ items, open, onClose }: { items: VideoListItem[]; open: boolean; onClose: () => void }) {
  const wallet = useWallet({ enabled: open })
  const create = useCreateOrder()
  const refreshVideos = useRefreshVideos()
  const [created, setCreated] = useState<CreatedOrder | null>(null)
  const [chosen, setChosen] = useState<PayChannel | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const attempt = useRef<{ signature: string; key: string } | null>(null)
  const env = useMemo(() => (typeof navigator === 'undefined' ? 'desktop' : detectPayEnv(navigator.userAgent)), [])
  const toBuy = items.filter((v) => !v.bought)
  const total = toBuy.reduce((sum, v) => sum + v.price, 0)

  const close = () => {
    if (created) void refreshVideos()
    setCreated(null)
    setError('')
    onClose()
  }
  const channels: PayChannel[] = wallet.data
    ? [...(wallet.data.channels.wechat ? ['WECHAT' as const] : []), ...(wallet.data.channels.alipay ? ['ALIPAY' as const] : []), 'BALANCE']
    : []
  const channel = chosen && channels.includes(chosen) ? chosen : (channels[0] ?? null)

  async function pay() {
    if (!channel || toBuy.length === 0) return
    const input = {
      type: toBuy.length === 1 && items.length === 1 ? ('BUY_VIDEO_MATERIAL' as const) : ('BATCH_BUY_VIDEO_MATERIAL' as const),
      videoIds: toBuy.map((v) => v.id),
      channel,
      ...paymentFields(channel, env),
      returnPath: currentReturnPath(),
    }
    const signature = JSON.stringify(input)
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: newIdempotencyKey() }
    setError('')
    setBusy(true)
    try {
      const order = await create.mutateAsync({ input, idempotencyKey: attempt.current.key })
      attempt.current = null
      if (order.order.status === 'SUCCESS') void refreshVideos()
      if ((await startPayment(order)) === 'show') setCreated(order)
      else return // leaving for the provider: keep the button busy
    } catch (e) {
      if (!mayHaveOrdered(e)) attempt.current = null
      setError(e instanceof ApiError ? e.message : '下单失败，请稍后再试')
    }
    setBusy(false)
  }

  return (
    <Dialog open={open} title={created ? '支付' : toBuy.length > 1 ? '批量购买视频素材' : '购买视频素材'} onClose={close} className="sm:max-w-lg">
      {created ? (
        <PaymentProgress orderId={created.order.id} payment={created.payment} onClose={close} />
      ) : wallet.isError ? (
        <EmptyState>加载失败，请稍后重试</EmptyState>
      ) : !wallet.data ? (
        <Loading />
      ) : (
        <div className="space-y-4">
          <ul className="max-h-48 space-y-1 overflow-y-auto text-sm">
            {items.map((v) => (
              <li key={v.id} className="flex items-center justify-between gap-3">
                <span className="truncate text-zinc-200">{v.title}</span>
                <span className={cn('shrink-0 tabular-nums', v.bought ? 'text-zinc-500 line-through' : 'text-zinc-300')}>
                  {v.bought ? '已购买' : `¥${formatCents(v.price)}`}
                </span>
              </li>
            ))}
          </ul>
          <div className="flex items-baseline justify-between border-t border-zinc-800 pt-3">
            <span className="text-sm text-zinc-400">应付合计</span>
            <span className="text-2xl font-semibold text-white tabular-nums" data-testid="video-pay-total">
              ¥{formatCents(total)}
            </span>
          </div>
          <div role="radiogroup" aria-label="支付方式" className="flex flex-wrap gap-2">
            {channels.map((c) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={channel === c}
                onClick={() => setChosen(c)}
                className={cn(
                  'h-9 rounded-lg px-3 text-sm ring-1 transition',
                  channel === c ? 'bg-brand-500/15 text-white ring-2 ring-brand-500' : 'bg-zinc-900 text-zinc-300 ring-zinc-700 hover:ring-zinc-500',
                )}
              >
                {c === 'BALANCE' ? `余额（¥${formatCents(wallet.data!.balance)}）` : CHANNEL_LABELS[c]}
              </button>
            ))}
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-400">
              {error}
            </p>
          )}
          <Button className="w-full" loading={busy} disabled={toBuy.length === 0 || !channel} onClick={() => void pay()}>
            立即支付
          </Button>
        </div>
      )}
    </Dialog>
  )
}
