'use client'

import { cn } from '@/lib/ui/cn'

/** A row of filter tabs (a radio group). */
export function Tabs<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: T
  options: { value: T; label: string }[]
  onChange: (v: T) => void
}) {
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto rounded-xl bg-zinc-900/80 p-1 ring-1 ring-zinc-800">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            'shrink-0 rounded-lg px-3 py-1.5 text-sm transition',
            value === o.value ? 'bg-zinc-700 text-white shadow' : 'text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200',
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  )
}
