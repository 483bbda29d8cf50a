'use client'

import { useSyncExternalStore } from 'react'
import { cn } from '@/lib/ui/cn'
import { getToasts, subscribeToasts } from '@/lib/ui/toast-store'

const kinds = {
  success: 'bg-emerald-600/95 text-white',
  error: 'bg-red-600/95 text-white',
  info: 'bg-zinc-800/95 text-zinc-100 ring-1 ring-zinc-700',
}

const noToasts: ReturnType<typeof getToasts> = []

export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, () => noToasts)
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex flex-col items-center gap-2 px-4">
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === 'error' ? 'alert' : 'status'} className={cn('max-w-md rounded-lg px-4 py-2.5 text-sm shadow-xl', kinds[t.kind])}>
          {t.message}
        </div>
      ))}
    </div>
  )
}
