import { cn } from '@/lib/ui/cn'

export function Spinner({ className }: { className?: string }) {
  return (
    <svg className={cn('animate-spin', className ?? 'size-5')} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}

/** docs/PRODUCT.md §2.6: lists say 加载中... while loading. */
export function Loading({ className }: { className?: string }) {
  return (
    <div className={cn('flex items-center justify-center gap-2 py-12 text-sm text-zinc-400', className)}>
      <Spinner className="size-4" />
      加载中...
    </div>
  )
}
