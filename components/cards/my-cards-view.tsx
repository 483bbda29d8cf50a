'use client'

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { Json } from '@/lib/api-client/hooks'
import { queryKeys } from '@/lib/api-client/query-client'
import { api } from '@/lib/api-client/request'
import type { MyCard } from '@/lib/cards/card-views'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, PageTitle } from '@/components/ui/card'
import { DataTable } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'
import { Td } from '@/components/ui/table'

type CardView = Json<MyCard>

/** docs/PRODUCT.md §2.5 "My cards": 未使用 in green, or 已使用 with the used time. */
function UsageStatus({ card }: { card: CardView }) {
  if (card.usedAt) return <span className="text-zinc-400">已使用 {formatDateTime(card.usedAt)}</span>
  if (card.isDisabled) return <span className="text-zinc-500">已停用</span>
  if (card.expiresAt && new Date(card.expiresAt) <= new Date()) return <span className="text-zinc-500">已过期</span>
  return <span className="font-medium text-emerald-400">未使用</span>
}

function useRedeem() {
  const queryClient = useQueryClient()
  return async (body: { cardKey: string } | { cardId: number }) => {
    const { points } = await api.post<{ points: number }>('/api/my-cards/redeem', body)
    toast.success(`兑换成功，获得 ${points} 积分`)
    await Promise.all(
      [queryKeys.myCards, queryKeys.profile, queryKeys.ledger].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    )
  }
}

function RedeemForm() {
  const [cardKey, setCardKey] = useState('')
  const [busy, run] = useAction()
  const redeem = useRedeem()

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!cardKey.trim()) return toast.error('请输入卡密')
    await run(async () => {
      await redeem({ cardKey: cardKey.trim() })
      setCardKey('')
    })
  }

  return (
    <Card className="mb-5">
      <form onSubmit={submit} className="flex flex-wrap gap-3">
        <Input aria-label="卡密" value={cardKey} onChange={(e) => setCardKey(e.target.value)} placeholder="输入卡密兑换积分" autoComplete="off" className="min-w-56 flex-1 font-mono" />
        <Button type="submit" loading={busy}>
          兑换
        </Button>
      </form>
    </Card>
  )
}

function CardList() {
  const { data, isLoading } = useQuery({ queryKey: queryKeys.myCards, queryFn: () => api.get<CardView[]>('/api/my-cards') })
  const [using, setUsing] = useState<number | null>(null)
  const redeem = useRedeem()

  async function use(card: CardView) {
    setUsing(card.id)
    await attempt(() => redeem({ cardId: card.id }))
    setUsing(null)
  }

  const columns = ['卡密', '积分', '创建时间', '使用状态', '操作']
  return (
    <DataTable columns={columns} isLoading={isLoading} isEmpty={data?.length === 0} empty="还没有卡密">
      {data?.map((card) => {
        const isUsable = !card.usedAt && !card.isDisabled && !(card.expiresAt && new Date(card.expiresAt) <= new Date())
        return (
          <tr key={card.id}>
            <Td className="font-mono">{card.cardKey}</Td>
            <Td>{card.points}</Td>
            <Td className="text-zinc-400">{formatDateTime(card.createdAt)}</Td>
            <Td>
              <UsageStatus card={card} />
            </Td>
            <Td>
              {isUsable ? (
                <Button size="sm" loading={using === card.id} onClick={() => use(card)}>
                  使用
                </Button>
              ) : (
                '-'
              )}
            </Td>
          </tr>
        )
      })}
    </DataTable>
  )
}

/** /my_cards: redeem a key, and the cards the user holds or has used. */
export function MyCardsView() {
  return (
    <RequireUser>
      {() => (
        <div>
          <PageTitle>我的卡密</PageTitle>
          <RedeemForm />
          <CardList />
        </div>
      )}
    </RequireUser>
  )
}
