'use client'

import { useState } from 'react'
import { api } from '@/lib/api-client/request'
import { formatCents, parseYuanToCents } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/field'
import type { UserRow } from './user-manager'

/** ADMIN: add to or take from a user's points and balance, with a reason (audited ledger entries). */
export function AdjustDialog({ user, onClose, onSaved }: { user: UserRow; onClose: () => void; onSaved: () => void }) {
  const [points, setPoints] = useState('')
  const [yuan, setYuan] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)

  async function save() {
    const pointsDelta = points.trim() ? Number(points) : 0
    const balanceDelta = yuan.trim() ? parseYuanToCents(yuan) : 0
    if (!Number.isInteger(pointsDelta)) return toast.error('积分必须是整数')
    if (balanceDelta === null) return toast.error('余额请输入金额，最多两位小数')
    if (!pointsDelta && !balanceDelta) return toast.error('请填写要调整的积分或余额')
    if (!reason.trim()) return toast.error('请填写调整原因')
    setBusy(true)
    try {
      await api.post(`/api/admin/user/${user.id}/adjust`, {
        ...(pointsDelta ? { points: pointsDelta } : {}),
        ...(balanceDelta ? { balance: balanceDelta } : {}),
        reason: reason.trim(),
      })
      toast.success('调整成功')
      onSaved()
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open
      title={`调整 ${user.username} 的积分/余额`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button loading={busy} onClick={save}>
            确认调整
          </Button>
        </>
      }
    >
      <p className="mb-4 text-sm text-zinc-400">
        当前积分 {user.points}，余额 ¥{formatCents(user.balance)}。填写正数增加，负数扣减。
      </p>
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
    </Dialog>
  )
}
