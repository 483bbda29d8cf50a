'use client'

import { useState } from 'react'
import { useSetChargeRecordStatus, type ChargeRecord } from '@/lib/api-client/resources/admin-charge-records'
import type { OrderStatus } from '@/lib/api-client/resources/orders'
import { formatCents, formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Field, Input, LabelOptions, Select } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import { CHANNEL_LABELS, ORDER_STATUS_LABELS, ORDER_TYPE_LABELS } from '@/components/payments/labels'
import { OrderStatusBadge } from '@/components/payments/order-status-badge'

function creditText(r: ChargeRecord): string {
  const parts = [r.points ? `${r.points} 积分` : '', r.balance ? `余额 ¥${formatCents(r.balance)}` : '', r.days ? `${r.days} 天` : ''].filter(Boolean)
  return parts.join('，') || '-'
}

function StatusDialog({ record, onClose }: { record: ChargeRecord; onClose: () => void }) {
  const [status, setStatus] = useState<OrderStatus>(record.status)
  const [note, setNote] = useState(record.note ?? '')
  const save = useSetChargeRecordStatus()
  const [busy, run] = useAction()

  async function confirm() {
    const ok = await run(() => save.mutateAsync({ id: record.id, status, ...(note.trim() ? { note: note.trim() } : {}) }))
    if (ok) {
      toast.success('状态已更新')
      onClose()
    }
  }

  return (
    <FormDialog
      title="修改充值记录状态"
      description="只改记录的状态，不会增减用户的积分或余额；操作会记入日志。"
      onClose={onClose}
      onConfirm={confirm}
      busy={busy}
    >
      <div className="space-y-4">
        <Field label="状态" htmlFor="cr-status">
          <Select id="cr-status" value={status} onChange={(e) => setStatus(e.target.value as OrderStatus)}>
            <LabelOptions labels={ORDER_STATUS_LABELS} />
          </Select>
        </Field>
        <Field label="备注" htmlFor="cr-note">
          <Input id="cr-note" value={note} onChange={(e) => setNote(e.target.value)} placeholder="选填" />
        </Field>
      </div>
    </FormDialog>
  )
}

/** Charge records of one page: user, type, channel, amount, what was credited, status; ADMIN changes the status. */
export function ChargeRecordTable({
  rows,
  isLoading,
  isError,
  canWrite,
  withUser = true,
}: {
  rows: ChargeRecord[] | undefined
  isLoading: boolean
  isError: boolean
  canWrite: boolean
  withUser?: boolean
}) {
  const [editing, setEditing] = useState<ChargeRecord | null>(null)
  const columns: Column<ChargeRecord>[] = [
    { header: '时间', cell: (r) => formatDateTime(r.createdAt), className: 'text-zinc-400' },
    ...(withUser
      ? [{ header: '用户', cell: (r: ChargeRecord) => `${r.user.name}${r.user.username ? `（@${r.user.username}）` : ''}`, mobile: 'title' as const }]
      : []),
    { header: '类型', cell: (r) => ORDER_TYPE_LABELS[r.type] ?? r.type, ...(withUser ? {} : { mobile: 'title' as const }) },
    { header: '渠道', cell: (r) => CHANNEL_LABELS[r.channel] ?? r.channel },
    { header: '金额', cell: (r) => `¥${formatCents(r.amount)}` },
    { header: '到账', cell: creditText },
    { header: '订单号', cell: (r) => r.outTradeNo ?? '-', className: 'font-mono text-xs text-zinc-400' },
    { header: '状态', cell: (r) => <OrderStatusBadge status={r.status} /> },
    { header: '备注', cell: (r) => r.note ?? '-', className: 'max-w-48 truncate text-zinc-400' },
    ...(canWrite
      ? [
          {
            header: '操作',
            mobile: 'actions' as const,
            cell: (r: ChargeRecord) => (
              <Button size="sm" variant="ghost" onClick={() => setEditing(r)}>
                改状态
              </Button>
            ),
          },
        ]
      : []),
  ]
  return (
    <>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        isLoading={isLoading}
        isError={isError}
        empty="暂无充值记录"
        rowClassName="hover:bg-zinc-900/50"
      />
      {editing && <StatusDialog record={editing} onClose={() => setEditing(null)} />}
    </>
  )
}
