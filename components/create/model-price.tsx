'use client'

import Link from 'next/link'
import { useEffect } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { Select } from '@/components/ui/field'
import { useModels } from '@/lib/api-client/resources/models'
import { modelsFor } from './use-catalog'
import { useMemberCost } from './use-member-cost'

/** The model picker for a task type, and what the submission will cost against the user's points. */
export function ModelAndPrice({
  taskType,
  modelId,
  onModelChange,
  count,
  pricePerImage,
}: {
  taskType: string
  modelId: string | null
  onModelChange: (id: string) => void
  count: number
  pricePerImage?: number
}) {
  const { data: models, isLoading } = useModels()
  const { profile } = useProfile()
  const options = modelsFor(models, taskType)
  const chosen = options.find((m) => m.id === modelId) ?? options[0]
  const fullCost = (pricePerImage ?? chosen?.prices[taskType] ?? 0) * count
  const { cost, discounted } = useMemberCost(fullCost)

  useEffect(() => {
    if (chosen && chosen.id !== modelId) onModelChange(chosen.id)
  }, [chosen, modelId, onModelChange])

  if (isLoading) return null
  if (!chosen) return <p className="rounded-lg bg-amber-500/10 px-3 py-2 text-sm text-amber-300">暂无可用的生成模型，请联系管理员配置。</p>

  return (
    <div className="space-y-3">
      {options.length > 1 && (
        <Select aria-label="模型" value={chosen.id} onChange={(e) => onModelChange(e.target.value)}>
          {options.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}（{m.prices[taskType]} 积分/张）
            </option>
          ))}
        </Select>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="text-zinc-400">
          {options.length === 1 && <span className="mr-2 text-zinc-500">{chosen.name} ·</span>}
          本次消耗{' '}
          <span data-testid="task-cost" className="font-semibold text-white">
            {cost}
          </span>{' '}
          积分
          {discounted && <MemberNote fullCost={fullCost} />}
        </span>
        {profile && (
          <span className="text-zinc-500">
            当前 {profile.points} 积分
            {profile.points < cost && (
              <Link href="/my_cards" className="ml-2 text-brand-300 hover:underline">
                去兑换
              </Link>
            )}
          </span>
        )}
      </div>
    </div>
  )
}

/** Beside a member's discounted cost: what others pay. */
export function MemberNote({ fullCost }: { fullCost: number }) {
  return <span className="ml-1 text-xs text-zinc-500">（会员价，原价 {fullCost}）</span>
}
