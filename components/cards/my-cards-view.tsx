'use client'

import { useState, type FormEvent } from 'react'
import { useMyCards, useRedeemCard, type MyCardJson } from '@/lib/api-client/resources/my-cards'
import { formatDateTime } from '@/lib/format'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'
import { RequireUser } from '@/components/app/require-user'
import { Button } from '@/components/ui/button'
import { Card, PageTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/data-table'
import { Input } from '@/components/ui/field'

type CardView = MyCardJson

/** docs/PRODUCT.md §2.5 "My cards": 未使用 in green, or 已使用 with the used time. */
function UsageStatus({ card }: { card: CardView }) {
  if (card.usedAt) return <span className="text-zinc-400">已使用 {formatDateTime(card.usedAt)}</span>
  if (card.isDisabled) return <span className="text-zinc-500">已停用</span>
  if (card.expiresAt && new Date(card.expiresAt) <= new Date()) return <span className="text-zinc-500">已过期</span>
  return <span className="font-medium text-emerald-400">未使用</span>
}

const isUsable = (card: CardView) => !card.usedAt && !card.isDisabled && !(card.expiresAt && new Date(card.expiresAt) <= new Date())

/** Redeems and says what it gave (the request layer shows failures). */
function useRedeem() {
  const { mutateAsync } = useRedeemCard()
  return async (body: { cardKey: string } | { cardId: number }) => {
    const { points } = await mutateAsync(body)
    toast.success(`兑换成功，获得 ${points} 积分`)
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
        <Input
          aria-label="卡密"
          value={cardKey}
          onChange={(e) => setCardKey(e.target.value)}
          placeholder="输入卡密兑换积分"
          autoComplete="off"
          className="min-w-56 flex-1 font-mono"
        />
        <Button type="submit" loading={busy}>
          兑换
        </Button>
      </form>
    </Card>
  )
}

function CardList() {
  const { data, isLoading, isError } = useMyCards()
  const [using, setUsing] = useState<number | null>(null)
  const redeem = useRedeem()

  async function use(card: CardView) {
    setUsing(card.id)
    await attempt(() => redeem({ cardId: card.id }))
    setUsing(null)
  }

  // On a phone the key heads each card and 使用 stays in reach (docs/PRODUCT.md §2.5).
  const columns: Column<CardView>[] = [
    { header: '卡密', cell: (c) => c.cardKey, className: 'font-mono', mobile: 'title' },
    { header: '积分', cell: (c) => c.points },
    { header: '创建时间', cell: (c) => formatDateTime(c.createdAt), className: 'text-zinc-400' },
    { header: '使用状态', cell: (c) => <UsageStatus card={c} /> },
    {
      header: '操作',
      mobile: 'actions',
      cell: (c) =>
        isUsable(c) ? (
          <Button size="sm" loading={using === c.id} onClick={() => use(c)}>
            使用
          </Button>
        ) : (
          <span data-no-action>-</span>
        ),
    },
  ]
  return <DataTable columns={columns} rows={data} rowKey={(c) => c.id} isLoading={isLoading} isError={isError} empty="还没有卡密" />
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
