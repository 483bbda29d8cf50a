'use client'

import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input, LabelOptions, Select } from '@/components/ui/field'
import { CHANNEL_LABELS, ORDER_STATUS_LABELS, ORDER_TYPE_LABELS } from '@/components/payments/labels'

export type OrderFilterValues = { type: string; channel: string; status: string; user: string; from: string; to: string }
export const NO_ORDER_FILTERS: OrderFilterValues = { type: '', channel: '', status: '', user: '', from: '', to: '' }

/**
 * Type, channel, status and the date range apply at once; the user keyword on 搜索. `withUser`
 * false leaves the user box out (a page that has picked its user already).
 */
export function OrderFilters<F extends Omit<OrderFilterValues, 'user'> & { user?: string }>({
  value,
  onChange,
  reset,
  withUser = true,
  userPlaceholder = '用户名、昵称、手机号或用户 ID',
}: {
  value: F
  onChange: (patch: Partial<F>) => void
  reset: F
  withUser?: boolean
  userPlaceholder?: string
}) {
  const [userInput, setUserInput] = useState(value.user ?? '')

  function search(e: FormEvent) {
    e.preventDefault()
    if (withUser) onChange({ user: userInput.trim() } as Partial<F>)
  }

  return (
    <form onSubmit={search} className="mb-4 flex flex-wrap items-center gap-2">
      <Select aria-label="订单类型" value={value.type} onChange={(e) => onChange({ type: e.target.value } as Partial<F>)} className="w-36">
        <LabelOptions all="全部类型" labels={ORDER_TYPE_LABELS} />
      </Select>
      <Select aria-label="支付渠道" value={value.channel} onChange={(e) => onChange({ channel: e.target.value } as Partial<F>)} className="w-32">
        <LabelOptions all="全部渠道" labels={CHANNEL_LABELS} />
      </Select>
      <Select aria-label="状态" value={value.status} onChange={(e) => onChange({ status: e.target.value } as Partial<F>)} className="w-32">
        <LabelOptions all="全部状态" labels={ORDER_STATUS_LABELS} />
      </Select>
      <div className="flex items-center gap-1.5">
        <Input
          type="date"
          aria-label="开始日期"
          value={value.from}
          max={value.to || undefined}
          onChange={(e) => onChange({ from: e.target.value } as Partial<F>)}
          className="w-38"
        />
        <span className="text-sm text-zinc-500">至</span>
        <Input
          type="date"
          aria-label="结束日期"
          value={value.to}
          min={value.from || undefined}
          onChange={(e) => onChange({ to: e.target.value } as Partial<F>)}
          className="w-38"
        />
      </div>
      <div className="flex gap-2">
        {withUser && (
          <>
            <Input aria-label="搜索用户" value={userInput} onChange={(e) => setUserInput(e.target.value)} placeholder={userPlaceholder} className="w-56" />
            <Button type="submit" variant="secondary">
              搜索
            </Button>
          </>
        )}
        <Button
          variant="ghost"
          onClick={() => {
            setUserInput('')
            onChange(reset)
          }}
        >
          重置
        </Button>
      </div>
    </form>
  )
}
