'use client'

import { useCheckIn, type Wallet } from '@/lib/api-client/resources/wallet'
import { formatCents, formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'

function Stat({ label, value, testId, extra }: { label: string; value: string; testId: string; extra?: React.ReactNode }) {
  return (
    <Card className="flex flex-col">
      <div className="text-sm text-zinc-400">{label}</div>
      <div data-testid={testId} className="mt-2 text-3xl font-semibold tracking-tight text-white">
        {value}
      </div>
      {extra && <div className="mt-3">{extra}</div>}
    </Card>
  )
}

function MembershipCard({ title, plan, testId }: { title: string; plan: { planName: string; expiresAt: string; perks: string[] } | null; testId: string }) {
  return (
    <Card>
      <div className="text-sm text-zinc-400">{title}</div>
      {plan ? (
        <div data-testid={testId}>
          <div className="mt-2 text-lg font-semibold text-white">{plan.planName}</div>
          <div className="mt-1 text-xs text-zinc-400">到期时间 {formatDateTime(plan.expiresAt)}</div>
          {plan.perks.length > 0 && <div className="mt-1 text-xs text-brand-300">{plan.perks.join(' · ')}</div>}
        </div>
      ) : (
        <div data-testid={testId} className="mt-2 text-sm text-zinc-500">
          未开通
        </div>
      )}
    </Card>
  )
}

/** Balance, points (with 签到), the image membership and the chat membership. */
export function WalletSummary({ wallet }: { wallet: Wallet }) {
  const checkIn = useCheckIn()
  const { membership: m, chatMembership: c } = wallet

  function doCheckIn() {
    return attempt(async () => {
      const { points } = await checkIn.mutateAsync()
      toast.success(`签到成功，获得 ${points} 积分`)
    })
  }

  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Stat label="余额（元）" value={formatCents(wallet.balance)} testId="account-balance" />
      <Stat
        label="积分"
        value={String(wallet.points)}
        testId="account-points"
        extra={
          wallet.checkIn && (
            <Button size="sm" variant="secondary" loading={checkIn.isPending} disabled={wallet.checkIn.checkedInToday} onClick={doCheckIn}>
              {wallet.checkIn.checkedInToday ? '今日已签到' : `签到 +${wallet.checkIn.points}`}
            </Button>
          )
        }
      />
      <MembershipCard
        title="会员"
        testId="account-membership"
        plan={
          m && {
            planName: m.planName,
            expiresAt: m.expiresAt,
            perks: [m.dailyPoints ? `每日 ${m.dailyPoints} 积分` : '', m.discountPercent ? `生成优惠 ${m.discountPercent}%` : ''].filter(Boolean),
          }
        }
      />
      <MembershipCard
        title="对话会员"
        testId="account-chat-membership"
        plan={c && { planName: c.planName, expiresAt: c.expiresAt, perks: c.dailyMessages ? [`每日 ${c.dailyMessages} 条对话`] : [] }}
      />
    </div>
  )
}
