'use client'

import { useState, type FormEvent } from 'react'
import {
  adminInviteQueries,
  useCommissionSettings,
  useUpdateCommissionSettings,
  type AdminCommission,
  type AdminInviteRelation,
  type CommissionSettings,
} from '@/lib/api-client/resources/admin-invites'
import { useProfile } from '@/lib/api-client/resources/profile'
import { usePagedList } from '@/lib/api-client/use-paged-list'
import { isAdmin } from '@/lib/auth/permissions'
import { formatCents, formatDateTime } from '@/lib/format'
import { COMMISSION_ORDER_TYPES } from '@/lib/invites/order-types'
import { cn } from '@/lib/ui/cn'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { Badge, Card, PageTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Field, Input, LabelOptions, Select } from '@/components/ui/field'
import { Pagination } from '@/components/ui/pagination'
import { Loading } from '@/components/ui/spinner'
import { ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { commissionText } from '@/components/invites/labels'

type Tab = 'relations' | 'records' | 'settings'
const TABS: Record<Tab, string> = { relations: '邀请关系', records: '佣金记录', settings: '佣金设置' }

const who = (p: { name: string; username: string }) => `${p.name}（@${p.username}）`

function KeywordSearch({ onSearch, placeholder }: { onSearch: (keyword: string) => void; placeholder: string }) {
  const [text, setText] = useState('')
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        onSearch(text.trim())
      }}
      className="flex gap-2"
    >
      <Input aria-label="搜索用户" value={text} onChange={(e) => setText(e.target.value)} placeholder={placeholder} className="w-56" />
      <Button type="submit" variant="secondary">
        搜索
      </Button>
    </form>
  )
}

function Relations() {
  const list = usePagedList({ filters: { keyword: '' }, query: adminInviteQueries.relations })
  const columns: Column<AdminInviteRelation>[] = [
    { header: '邀请人', cell: (r) => who(r.inviter), mobile: 'title' },
    { header: '被邀请人', cell: (r) => who(r.invitee) },
    { header: '绑定时间', cell: (r) => formatDateTime(r.invitedAt), className: 'text-zinc-400' },
    { header: '支付订单', cell: (r) => `${r.orders} 笔 / ¥${formatCents(r.paid)}` },
    {
      header: '佣金',
      cell: (r) =>
        [r.commission.balance ? `¥${formatCents(r.commission.balance)}` : '', r.commission.points ? `${r.commission.points} 积分` : '']
          .filter(Boolean)
          .join('，') || '-',
    },
  ]
  return (
    <>
      <div className="mb-4">
        <KeywordSearch onSearch={(keyword) => list.setFilters({ keyword })} placeholder="邀请人或被邀请人" />
      </div>
      <DataTable columns={columns} rows={list.rows} rowKey={(r) => r.invitee.id} isLoading={list.isLoading} isError={list.isError} empty="暂无邀请关系" />
      {list.rows && <Pagination {...list.pager} />}
    </>
  )
}

const NO_RECORD_FILTERS = { keyword: '', orderType: '', status: '' }
const RECORD_STATUS = { SUCCESS: '有效', CANCELED: '已收回' } as const

function Records() {
  const list = usePagedList({ filters: NO_RECORD_FILTERS, query: adminInviteQueries.records })
  const columns: Column<AdminCommission>[] = [
    { header: '时间', cell: (r) => formatDateTime(r.createdAt), className: 'text-zinc-400' },
    { header: '邀请人', cell: (r) => who(r.inviter), mobile: 'title' },
    { header: '被邀请人', cell: (r) => who(r.invitee) },
    { header: '订单类型', cell: (r) => ORDER_TYPE_LABELS[r.orderType as keyof typeof ORDER_TYPE_LABELS] ?? r.orderType },
    { header: '订单金额', cell: (r) => `¥${formatCents(r.orderAmount)}` },
    { header: '比例', cell: (r) => `${r.rate}%` },
    { header: '佣金', cell: (r) => commissionText(r.account, r.amount) },
    { header: '订单号', cell: (r) => r.outTradeNo, className: 'font-mono text-xs text-zinc-400' },
    {
      header: '状态',
      cell: (r) => <Badge tone={r.status === 'SUCCESS' ? 'green' : 'zinc'}>{RECORD_STATUS[r.status as keyof typeof RECORD_STATUS] ?? r.status}</Badge>,
    },
    { header: '备注', cell: (r) => r.note ?? '-', className: 'max-w-48 truncate text-zinc-400' },
  ]
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Select aria-label="订单类型" value={list.filters.orderType} onChange={(e) => list.setFilters({ orderType: e.target.value })} className="w-40">
          <LabelOptions all="全部类型" labels={ORDER_TYPE_LABELS} />
        </Select>
        <Select aria-label="状态" value={list.filters.status} onChange={(e) => list.setFilters({ status: e.target.value })} className="w-32">
          <LabelOptions all="全部状态" labels={RECORD_STATUS} />
        </Select>
        <KeywordSearch onSearch={(keyword) => list.setFilters({ keyword })} placeholder="邀请人或被邀请人" />
      </div>
      <DataTable columns={columns} rows={list.rows} rowKey={(r) => r.id} isLoading={list.isLoading} isError={list.isError} empty="暂无佣金记录" />
      {list.rows && <Pagination {...list.pager} />}
    </>
  )
}

function SettingsForm({ settings, canWrite }: { settings: CommissionSettings; canWrite: boolean }) {
  const [rates, setRates] = useState(() => Object.fromEntries(COMMISSION_ORDER_TYPES.map((t) => [t, String(settings.rates[t] ?? 0)])))
  const [payAs, setPayAs] = useState(settings.payAs)
  const [pointsPerYuan, setPointsPerYuan] = useState(String(settings.pointsPerYuan))
  const [inviteReward, setInviteReward] = useState(String(settings.inviteReward))
  const save = useUpdateCommissionSettings()
  const [busy, run] = useAction()

  async function submit(e: FormEvent) {
    e.preventDefault()
    const numbers = Object.fromEntries(COMMISSION_ORDER_TYPES.map((t) => [t, Number(rates[t])]))
    if (Object.values(numbers).some((n) => !Number.isInteger(n) || n < 0 || n > 100)) return toast.error('佣金比例须为 0-100 的整数')
    const ok = await run(() => save.mutateAsync({ rates: numbers, payAs, pointsPerYuan: Number(pointsPerYuan), inviteReward: Number(inviteReward) }))
    if (ok) toast.success('佣金设置已保存')
  }

  return (
    <Card className="max-w-3xl">
      <form onSubmit={submit} className="space-y-5">
        <fieldset disabled={!canWrite} className="space-y-5">
          <div>
            <h2 className="mb-3 text-sm font-medium text-zinc-300">各类订单的佣金比例（%，0 为不返佣）</h2>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {COMMISSION_ORDER_TYPES.map((t) => (
                <Field key={t} label={ORDER_TYPE_LABELS[t]} htmlFor={`rate-${t}`}>
                  <Input
                    id={`rate-${t}`}
                    type="number"
                    min={0}
                    max={100}
                    step={1}
                    value={rates[t]}
                    onChange={(e) => setRates((r) => ({ ...r, [t]: e.target.value }))}
                  />
                </Field>
              ))}
            </div>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="佣金发放方式" htmlFor="pay-as" help="余额按分向下取整；积分按每元积分数折算后向下取整">
              <Select id="pay-as" value={payAs} onChange={(e) => setPayAs(e.target.value as 'BALANCE' | 'POINTS')}>
                <option value="POINTS">积分</option>
                <option value="BALANCE">余额</option>
              </Select>
            </Field>
            <Field label="每元折合积分" htmlFor="points-per-yuan">
              <Input id="points-per-yuan" type="number" min={1} step={1} value={pointsPerYuan} onChange={(e) => setPointsPerYuan(e.target.value)} />
            </Field>
            <Field label="绑定邀请奖励（积分）" htmlFor="invite-reward" help="邀请人和被邀请人各得，0 为不奖励">
              <Input id="invite-reward" type="number" min={0} step={1} value={inviteReward} onChange={(e) => setInviteReward(e.target.value)} />
            </Field>
          </div>
          <p className="text-xs text-zinc-500">佣金在订单支付成功时发放，每笔订单只发一次；用余额支付的订单不返佣。佣金不可提现，只能在本站消费。</p>
        </fieldset>
        {canWrite ? (
          <Button type="submit" loading={busy}>
            保存设置
          </Button>
        ) : (
          <p className="text-xs text-zinc-500">只有管理员可以修改佣金设置</p>
        )}
      </form>
    </Card>
  )
}

function Settings() {
  const { data, isLoading, isError } = useCommissionSettings()
  const { profile } = useProfile()
  if (isLoading) return <Loading />
  if (isError || !data) return <Card className="text-sm text-zinc-400">佣金设置加载失败，请刷新重试</Card>
  return <SettingsForm settings={data} canWrite={profile ? isAdmin(profile.role) : false} />
}

/** /admin/invite_mana (docs/PRODUCT.md §17): invite relations, commission records, the settings. */
export function InviteManager() {
  const [tab, setTab] = useState<Tab>('relations')
  return (
    <div>
      <PageTitle>邀请管理</PageTitle>
      <div role="tablist" aria-label="邀请管理" className="mb-4 flex gap-1 overflow-x-auto rounded-xl bg-zinc-950/60 p-1 ring-1 ring-zinc-800 sm:w-fit">
        {(Object.keys(TABS) as Tab[]).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={cn('h-9 whitespace-nowrap rounded-lg px-4 text-sm transition', tab === t ? 'bg-zinc-800 text-white' : 'text-zinc-400 hover:text-white')}
          >
            {TABS[t]}
          </button>
        ))}
      </div>
      {tab === 'relations' && <Relations />}
      {tab === 'records' && <Records />}
      {tab === 'settings' && <Settings />}
    </div>
  )
}
