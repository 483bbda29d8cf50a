'use client'

import { useState } from 'react'
import { newAdjustmentKey, useAdjustUser } from '@/lib/api-client/resources/admin-users'
import { formatCents, parseYuanToCents } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { useAction } from '@/lib/ui/use-action'
import { Field, Input } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import type { UserRow } from './user-manager'

/**
 * ADMIN: add to or take from a user's points and balance, with a reason (audited ledger
 * entries). The dialog makes one Idempotency-Key when it opens and sends it with every try,
 * so a retry after a lost answer or a second click is answered with the first result
 * instead of being booked twice. Reopening the dialog starts a new adjustment.
 */
export function AdjustDialog({ user, onClose, onSaved }: { user: UserRow; onClose: () => void; onSaved: () => void }) {
  const [idempotencyKey] = useState(newAdjustmentKey)
  const adjust = useAdjustUser()
  const [points, setPoints] = useState('')
  const [yuan, setYuan] = useState('')
  const [reason, setReason] = useState('')
  const [busy, run] = useAction()

  async function save() {
    const pointsDelta = points.trim() ? Number(points) : 0
    const balanceDelta = yuan.trim() ? parseYuanToCents(yuan) : 0
    if (!Number.isInteger(pointsDelta)) return toast.error('积分必须是整数')
    if (balanceDelta === null) return toast.error('余额请输入金额，最多两位小数')
    if (!pointsDelta && !balanceDelta) return toast.error('请填写要调整的积分或余额')
    if (!reason.trim()) return toast.error('请填写调整原因')
    await run(async () => {
      await adjust.mutateAsync({
        id: user.id,
        body: { ...(pointsDelta ? { points: pointsDelta } : {}), ...(balanceDelta ? { balance: balanceDelta } : {}), reason: reason.trim() },
        key: idempotencyKey,
      })
      toast.success('调整成功')
      onSaved()
    })
  }

  return (
    <FormDialog
      title={`调整 ${user.username} 的积分/余额`}
      description={`当前积分 ${user.points}，余额 ¥${formatCents(user.balance)}。填写正数增加，负数扣减。`}
      onClose={onClose}
      onConfirm={save}
      busy={busy}
      submitLabel="确认调整"
    >
      <div className="space-y-4">
        <Field label="积分变动" htmlFor="adj-points">
          <Input id="adj-points" type="number" inputMode="numeric" value={points} onChange={(e) => setPoints(e.target.value)} placeholder="例如 100 或 -50" />
        </Field>
        <Field label="余额变动（元）" htmlFor="adj-balance">
          <Input id="adj-balance" inputMode="decimal" value={yuan} onChange={(e) => setYuan(e.target.value)} placeholder="例如 10.00 或 -5.5" />
        </Field>
        <Field label="调整原因" htmlFor="adj-reason">
          <Input id="adj-reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
      </div>
    </FormDialog>
  )
}
