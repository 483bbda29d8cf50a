'use client'

import { useState } from 'react'
import { RequireUser } from '@/components/app/require-user'
import { Card, EmptyState, PageTitle } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import type { CreatedOrder } from '@/lib/api-client/resources/orders'
import { useWallet } from '@/lib/api-client/resources/wallet'
import { OrderProgressDialog } from '@/components/payments/recharge-dialog'
import { RechargeForm } from '@/components/payments/recharge-form'
import { LedgerList } from './ledger-list'
import { OrderHistory } from './order-history'
import { WalletSummary } from './wallet-summary'

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-8">
      <h2 className="mb-3 text-lg font-medium text-white">{title}</h2>
      {children}
    </section>
  )
}

/** /account, the wallet: what I hold, 充值, my orders and 收支明细. (Back from a cashier, components/payments/returned-order.tsx shows the order.) */
function Wallet() {
  const wallet = useWallet()
  const [created, setCreated] = useState<CreatedOrder | null>(null)

  return (
    <div>
      <PageTitle>我的账户</PageTitle>
      {wallet.data ? (
        <WalletSummary wallet={wallet.data} />
      ) : wallet.isError ? (
        <Card>
          <EmptyState>钱包加载失败，请稍后刷新重试</EmptyState>
        </Card>
      ) : (
        <Loading />
      )}
      <Section title="充值">
        <Card>{wallet.data ? <RechargeForm wallet={wallet.data} onCreated={setCreated} /> : <Loading />}</Card>
      </Section>
      <Section title="订单记录">
        <OrderHistory />
      </Section>
      <Section title="收支明细">
        <LedgerList />
      </Section>
      <OrderProgressDialog orderId={created?.order.id ?? null} payment={created?.payment} onClose={() => setCreated(null)} />
    </div>
  )
}

export function AccountView() {
  return <RequireUser>{() => <Wallet />}</RequireUser>
}
