import { Input } from '@/components/ui/field'
import { priceLabel, type PricedTaskType } from './model-labels'

export type PriceInputs = Record<PricedTaskType, string>

/** One points box per price key the model's type offers (task types for SD, actions for MJ); empty = not offered. */
export function ModelPriceTable({ keys, value, onChange }: { keys: readonly PricedTaskType[]; value: PriceInputs; onChange: (next: PriceInputs) => void }) {
  const isMj = keys.some((k) => k.startsWith('MJ_'))
  const isVideo = keys.some((k) => k.startsWith('VIDEO_'))
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-300">{isMj ? '价格（积分/次）' : isVideo ? '价格（积分）' : '价格（积分/张）'}</legend>
      <p className="mb-2 text-xs text-zinc-500">
        留空表示该模型不提供此功能，0 表示免费{isMj ? '；Midjourney 按操作计价' : isVideo ? '；一条视频的价格 = 每条价格 + 每秒加价 × 时长' : ''}
      </p>
      <div className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        {keys.map((key) => (
          <label key={key} htmlFor={`price-${key}`} className="flex items-center gap-2 text-sm text-zinc-400">
            <span className="w-20 shrink-0">{priceLabel(key)}</span>
            <Input
              id={`price-${key}`}
              aria-label={`${priceLabel(key)}价格`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={value[key]}
              onChange={(e) => onChange({ ...value, [key]: e.target.value })}
              placeholder="不提供"
              className="min-w-0"
            />
          </label>
        ))}
      </div>
    </fieldset>
  )
}
