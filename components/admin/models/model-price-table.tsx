import { Input } from '@/components/ui/field'
import { taskTypeLabel } from '@/components/create/task-labels'
import { PRICED_TASK_TYPES, type PricedTaskType } from './model-labels'

export type PriceInputs = Record<PricedTaskType, string>

/** One points-per-image box per task type; an empty box means the model does not offer that type. */
export function ModelPriceTable({ value, onChange }: { value: PriceInputs; onChange: (next: PriceInputs) => void }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-300">价格（积分/张）</legend>
      <p className="mb-2 text-xs text-zinc-500">留空表示该模型不提供此功能，0 表示免费</p>
      <div className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        {PRICED_TASK_TYPES.map((type) => (
          <label key={type} htmlFor={`price-${type}`} className="flex items-center gap-2 text-sm text-zinc-400">
            <span className="w-20 shrink-0">{taskTypeLabel(type)}</span>
            <Input
              id={`price-${type}`}
              aria-label={`${taskTypeLabel(type)}价格`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={value[type]}
              onChange={(e) => onChange({ ...value, [type]: e.target.value })}
              placeholder="不提供"
              className="min-w-0"
            />
          </label>
        ))}
      </div>
    </fieldset>
  )
}
