import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react'
import { cn } from '@/lib/ui/cn'

/** A data table that scrolls sideways on narrow screens instead of squashing. */
export function Table({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('overflow-x-auto rounded-xl ring-1 ring-zinc-800', className)}>
      <table className="w-full min-w-max border-collapse text-left text-sm">{children}</table>
    </div>
  )
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th className={cn('bg-zinc-900 px-4 py-3 text-xs font-medium tracking-wide text-zinc-400', className)} {...rest} />
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('border-t border-zinc-800/80 px-4 py-3 text-zinc-200', className)} {...rest} />
}

/** A full-width row for the loading and empty states. */
export function TableMessage({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="border-t border-zinc-800/80">
        {children}
      </td>
    </tr>
  )
}
