'use client'

import { useState } from 'react'
import { useAssignCard } from '@/lib/api-client/resources/admin-cards'
import { useUserSearch } from '@/lib/api-client/resources/admin-users'
import { toast } from '@/lib/ui/toast-store'
import { cn } from '@/lib/ui/cn'
import { useAction } from '@/lib/ui/use-action'
import { Input } from '@/components/ui/field'
import { FormDialog } from '@/components/ui/form-dialog'
import type { UserRow } from '@/components/admin/users/user-manager'
import type { CardRow } from './card-status'

/** Hands a ready card to a user found by username, name or mobile. */
export function AssignCardDialog({ card, onClose, onAssigned }: { card: CardRow; onClose: () => void; onAssigned: () => void }) {
  const [keyword, setKeyword] = useState('')
  const [chosen, setChosen] = useState<UserRow | null>(null)
  const [busy, run] = useAction()
  const { data } = useUserSearch(keyword.trim(), 8)
  const assignCard = useAssignCard()

  async function assign() {
    if (!chosen) return toast.error('请选择用户')
    await run(async () => {
      await assignCard.mutateAsync({ id: card.id, userId: chosen.id })
      toast.success(`已分配给 ${chosen.name}`)
      onAssigned()
    })
  }

  return (
    <FormDialog title={`分配卡密 ${card.cardNo}`} onClose={onClose} onConfirm={assign} busy={busy} submitDisabled={!chosen} submitLabel="分配">
      <Input aria-label="查找用户" value={keyword} onChange={(e) => (setKeyword(e.target.value), setChosen(null))} placeholder="输入用户名、昵称或手机号查找" />
      <ul className="mt-3 max-h-64 space-y-1 overflow-y-auto">
        {data?.list.map((u) => (
          <li key={u.id}>
            <button
              type="button"
              onClick={() => setChosen(u)}
              className={cn(
                'flex w-full items-center justify-between rounded-lg px-3 py-2 text-left text-sm',
                chosen?.id === u.id ? 'bg-brand-600/20 text-white ring-1 ring-brand-500' : 'hover:bg-zinc-800',
              )}
            >
              <span>
                {u.name} <span className="text-zinc-500">@{u.username}</span>
              </span>
              <span className="text-xs text-zinc-500">{u.mobile ?? ''}</span>
            </button>
          </li>
        ))}
        {keyword.trim() && data?.list.length === 0 && <li className="px-3 py-2 text-sm text-zinc-500">没有找到用户</li>}
      </ul>
    </FormDialog>
  )
}
