'use client'

import Link from 'next/link'
import { useState } from 'react'
import type { CreatedOrder, PaymentStart } from '@/lib/api-client/resources/orders'
import type { ProductType } from '@/lib/api-client/resources/products'
import { useWallet } from '@/lib/api-client/resources/wallet'
import { Dialog } from '@/components/ui/dialog'
import { EmptyState } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { PaymentProgress } from './payment-progress'
import { RechargeForm } from './recharge-form'

/**
 * 充值 in a dialog, wherever the user is: pick and pay, then follow the order to its
 * outcome without leaving the page (Alipay page pay and WeChat H5 come back to /account).
 */
export function RechargeDialog({
  open,
  onClose,
  title = '充值',
  description,
  initialTab,
}: {
  open: boolean
  onClose: () => void
  title?: string
  description?: string
  initialTab?: ProductType
}) {
  // Mounted on every page, visitors' included: the wallet is asked for only once the dialog opens.
  const wallet = useWallet({ enabled: open })
  const [created, setCreated] = useState<CreatedOrder | null>(null)
  const close = () => {
    setCreated(null)
    onClose()
  }
  return (
    <Dialog open={open} title={created ? '支付' : title} description={created ? undefined : description} onClose={close} className="sm:max-w-xl">
      {created ? (
        <PaymentProgress orderId={created.order.id} payment={created.payment} onClose={close} />
      ) : wallet.data ? (
        <>
          <RechargeForm wallet={wallet.data} initialTab={initialTab} onCreated={setCreated} />
          <p className="mt-4 text-xs text-zinc-500">
            有卡密？
            <Link href="/my_cards" onClick={close} className="text-brand-300 hover:underline">
              兑换卡密
            </Link>
          </p>
        </>
      ) : wallet.isError ? (
        <EmptyState>加载失败，请稍后重试</EmptyState>
      ) : (
        <Loading />
      )}
    </Dialog>
  )
}

/** A dialog that follows one existing order (continued from the history, or back from the provider). */
export function OrderProgressDialog({ orderId, payment, onClose }: { orderId: string | null; payment?: PaymentStart; onClose: () => void }) {
  return (
    <Dialog open={Boolean(orderId)} title="支付" onClose={onClose}>
      {orderId && <PaymentProgress orderId={orderId} payment={payment} onClose={onClose} />}
    </Dialog>
  )
}
