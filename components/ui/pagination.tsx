'use client'

import { cn } from '@/lib/ui/cn'
import { pageWindow } from '@/lib/ui/page-window'

/** docs/PRODUCT.md §2.6: at most 6 page numbers with ellipses and first/last, footer 总计 N 条. */
export function Pagination({ page, pageSize, total, onChange }: { page: number; pageSize: number; total: number; onChange: (page: number) => void }) {
  const totalPages = Math.max(1, Math.ceil(total / pageSize))
  const item = 'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm transition'
  return (
    <nav aria-label="分页" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-zinc-400">
      <span>总计 {total} 条</span>
      <div className="flex flex-wrap items-center gap-1">
        <button
          type="button"
          aria-label="上一页"
          className={cn(item, 'hover:bg-zinc-800 disabled:opacity-40')}
          disabled={page <= 1}
          onClick={() => onChange(page - 1)}
        >
          ‹
        </button>
        {pageWindow(page, totalPages).map((p) =>
          typeof p === 'number' ? (
            <button
              key={p}
              type="button"
              aria-current={p === page ? 'page' : undefined}
              className={cn(item, p === page ? 'bg-brand-600 font-medium text-white' : 'hover:bg-zinc-800')}
              onClick={() => onChange(p)}
            >
              {p}
            </button>
          ) : (
            <span key={p} className={cn(item, 'text-zinc-600')} aria-hidden="true">
              …
            </span>
          ),
        )}
        <button
          type="button"
          aria-label="下一页"
          className={cn(item, 'hover:bg-zinc-800 disabled:opacity-40')}
          disabled={page >= totalPages}
          onClick={() => onChange(page + 1)}
        >
          ›
        </button>
      </div>
    </nav>
  )
}
