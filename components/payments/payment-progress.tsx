'use client'

import { useEffect, useState } from 'react'
import { useCancelOrder, useOrder, type PaymentStart } from '@/lib/api-client/resources/orders'
import { useWallet } from '@/lib/api-client/resources/wallet'
import { formatCents } from '@/lib/format'
import { attempt } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { CHANNEL_LABELS, ORDER_TYPE_LABELS } from './labels'
import { QrCode } from './qr-code'
import { payInWechat } from './start-payment'

function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

function Outcome({ tone, title, children }: { tone: 'green' | 'red' | 'zinc'; title: string; children?: React.ReactNode }) {
  const color = tone === 'green' ? 'text-emerald-400' : tone === 'red' ? 'text-red-400' : 'text-zinc-300'
  return (
    <div className="py-4 text-center" data-testid={`pay-outcome-${tone}`}>
      <div className={`text-xl font-semibold ${color}`}>{title}</div>
      {children && <div className="mt-2 text-sm text-zinc-400">{children}</div>}
    </div>
  )
}

/**
 * One order on its way: the QR code to scan (or a wait for WeChat's answer), then the
 * outcome. The order is asked about every 2 s while it is pending and this is on screen;
 * closing leaves it pending (the order history can continue or cancel it).
 */
export function PaymentProgress({ orderId, payment, onClose }: { orderId: string; payment?: PaymentStart; onClose: () => void }) {
  const order = useOrder(orderId)
  const wallet = useWallet()
  const cancel = useCancelOrder()
  const now = useNow(1000)
  const o = order.data

  if (!o) {
    return order.isError ? (
      <Outcome tone="red" title="订单加载失败">
        请稍后在订单记录中查看
      </Outcome>
    ) : (
      <div className="flex justify-center py-10">
        <Spinner className="size-6 text-zinc-400" />
      </div>
    )
  }

  const expired = o.status === 'PENDING' && o.expiresAt !== null && new Date(o.expiresAt).getTime() <= now
  // The answer to the order's creation, or (continuing a pending order) the order's own payment.
  const pay = payment ?? o.payment
  const qr = pay?.codeUrl ?? pay?.qrCode
  // Paid on the provider's own page (Alipay wap or page pay, WeChat H5) or in WeChat's pay sheet:
  // a way back there for an order continued from the history, or one whose sheet was closed.
  const away = pay?.alipayUrl ?? pay?.h5Url
  const jsapi = pay?.jsapi
  const provider = o.channel === 'ALIPAY' ? '支付宝' : '微信'
  const head = (
    <div className="mb-4 flex items-baseline justify-between gap-3 text-sm text-zinc-400">
      <span className="truncate">
        {o.subject || ORDER_TYPE_LABELS[o.type]} · {CHANNEL_LABELS[o.channel]}
      </span>
      <span className="shrink-0 text-lg font-semibold text-white">¥{formatCents(o.amount)}</span>
    </div>
  )

  let body: React.ReactNode
  if (o.status === 'SUCCESS') {
    body = (
      <Outcome tone="green" title="支付成功">
        {wallet.data ? (
          <span data-testid="pay-success-wallet">
            当前积分 <b className="text-white">{wallet.data.points}</b>，余额 <b className="text-white">¥{formatCents(wallet.data.balance)}</b>
          </span>
        ) : (
          '已到账'
        )}
      </Outcome>
    )
  } else if (o.status === 'FAIL') {
    body = (
      <Outcome tone="red" title="支付失败">
        请重新下单，如已扣款请联系管理员
      </Outcome>
    )
  } else if (o.status === 'CANCELED' || expired) {
    body = (
      <Outcome tone="zinc" title={o.status === 'CANCELED' ? '订单已取消' : '订单已过期'}>
        请重新下单
      </Outcome>
    )
  } else {
    body = (
      <div className="space-y-4 text-center" data-testid="pay-pending" data-out-trade-no={o.outTradeNo}>
        {qr ? (
          <>
            <QrCode text={qr} label={o.channel === 'ALIPAY' ? '支付宝付款码' : '微信支付二维码'} />
            <p className="text-sm text-zinc-300">请使用{o.channel === 'ALIPAY' ? '支付宝' : '微信'}扫码支付</p>
          </>
        ) : away || jsapi ? (
          <div className="flex flex-col items-center gap-3 py-4 text-sm text-zinc-300">
            <Button onClick={() => (away ? window.location.assign(away) : jsapi && void payInWechat(jsapi))}>前往{provider}支付</Button>
            <p>在{provider}中完成支付后，这里会显示结果</p>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-3 py-6 text-sm text-zinc-300">
            <Spinner className="size-6 text-brand-400" />
            等待支付结果…
          </div>
        )}
        <p className="flex items-center justify-center gap-2 text-xs text-zinc-500">
          <Spinner className="size-3" />
          支付完成后将自动更新{o.expiresAt ? `，请在 ${new Date(o.expiresAt).toLocaleTimeString('zh-CN', { hour12: false })} 前支付` : ''}
        </p>
      </div>
    )
  }

  const pending = o.status === 'PENDING' && !expired
  return (
    <div>
      {head}
      {body}
      <div className="mt-5 flex justify-end gap-2">
        {pending && (
          <Button variant="ghost" loading={cancel.isPending} onClick={() => attempt(() => cancel.mutateAsync(o.id).then(() => order.refetch()))}>
            取消订单
          </Button>
        )}
        <Button variant={pending ? 'secondary' : 'primary'} onClick={onClose}>
          {pending ? '稍后支付' : '完成'}
        </Button>
      </div>
    </div>
  )
}
