import type { ReactNode } from 'react'
import { cn } from '@/lib/ui/cn'

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return <section className={cn('rounded-2xl bg-zinc-900/70 p-5 ring-1 ring-zinc-800 sm:p-6', className)}>{children}</section>
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-xl font-semibold tracking-tight text-white sm:text-2xl">{children}</h1>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  )
}

type Tone = 'green' | 'red' | 'zinc' | 'amber' | 'brand'
const tones: Record<Tone, string> = {
  green: 'bg-emerald-500/10 text-emerald-400 ring-emerald-500/30',
  red: 'bg-red-500/10 text-red-400 ring-red-500/30',
  zinc: 'bg-zinc-500/10 text-zinc-300 ring-zinc-500/30',
  amber: 'bg-amber-500/10 text-amber-300 ring-amber-500/30',
  brand: 'bg-brand-500/10 text-brand-300 ring-brand-500/30',
}

export function Badge({ tone = 'zinc', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={cn('inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone])}>{children}</span>
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="py-12 text-center text-sm text-zinc-500">{children}</div>
}
