'use client'

import { RequireUser } from '@/components/app/require-user'
import { Card, PageTitle } from '@/components/ui/card'
import { formatCents } from '@/lib/format'
import { LedgerList } from './ledger-list'
import { ROLE_LABELS } from '@/lib/users/role-labels'

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <div className="text-sm text-zinc-400">{label}</div>
      <div data-testid={testId} className="mt-2 text-3xl font-semibold tracking-tight text-white">
        {value}
      </div>
    </Card>
  )
}

/** /account: balance (yuan, 2 decimals), points and role. */
export function AccountView() {
  return (
    <RequireUser>
      {(profile) => (
        <div>
          <PageTitle>我的账户</PageTitle>
          <div className="grid gap-4 sm:grid-cols-3">
            <Stat label="余额（元）" value={formatCents(profile.balance)} testId="account-balance" />
            <Stat label="积分" value={String(profile.points)} testId="account-points" />
            <Stat label="账户角色" value={ROLE_LABELS[profile.role]} testId="account-role" />
          </div>
          <h2 className="mb-3 mt-8 text-lg font-medium text-white">收支明细</h2>
          <LedgerList />
        </div>
      )}
    </RequireUser>
  )
}
