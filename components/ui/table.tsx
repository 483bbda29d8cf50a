import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react'
import { cn } from '@/lib/ui/cn'

/**
 * A data table. From `sm` up it is a table that scrolls sideways rather than squash; below
 * (`stacked`), each row is a card of label-value lines, so nothing hides off-screen on a
 * phone. The explicit roles keep the table's meaning for screen readers when CSS turns
 * its parts into blocks.
 */
export function Table({ children, className, stacked }: { children: ReactNode; className?: string; stacked?: boolean }) {
  return (
    <div className={cn('overflow-x-auto rounded-xl ring-1 ring-zinc-800', stacked && 'max-sm:overflow-visible max-sm:rounded-none max-sm:ring-0', className)}>
      <table role="table" className={cn('w-full min-w-max border-collapse text-left text-sm', stacked && 'max-sm:block max-sm:min-w-0')}>
        {children}
      </table>
    </div>
  )
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th role="columnheader" className={cn('bg-zinc-900 px-4 py-3 text-xs font-medium tracking-wide text-zinc-400', className)} {...rest} />
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td role="cell" className={cn('border-t border-zinc-800/80 px-4 py-3 text-zinc-200', className)} {...rest} />
}

/** How a column shows when rows are cards (below `sm`). */
export type MobileCell = 'line' | 'title' | 'actions' | 'hide'

/** The phone look of a cell: a label-value line (the label from `data-label`), the card's title, its action row, or nothing. */
export const stackedCell: Record<MobileCell, string> = {
  line: 'max-sm:flex max-sm:min-w-0 max-sm:max-w-none max-sm:items-start max-sm:justify-between max-sm:gap-4 max-sm:whitespace-normal max-sm:border-0 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:leading-5 max-sm:before:text-zinc-500 max-sm:before:content-[attr(data-label)]',
  title: 'max-sm:order-first max-sm:block max-sm:max-w-none max-sm:whitespace-normal max-sm:border-0 max-sm:px-0 max-sm:pb-1 max-sm:pt-0 max-sm:text-base',
  // A row without an action shows its placeholder as <span data-no-action>-</span>: no empty action row on the card.
  actions:
    'max-sm:has-[>[data-no-action]]:hidden max-sm:order-last max-sm:flex max-sm:max-w-none max-sm:justify-end max-sm:border-0 max-sm:border-t max-sm:border-zinc-800/80 max-sm:px-0 max-sm:pb-0 max-sm:pt-2 max-sm:mt-1',
  hide: 'max-sm:hidden',
}

/** A full-width row for the loading and empty states. */
export function TableMessage({ colSpan, children, stacked }: { colSpan: number; children: ReactNode; stacked?: boolean }) {
  return (
    <tr role="row" className={cn(stacked && 'max-sm:block max-sm:rounded-xl max-sm:ring-1 max-sm:ring-zinc-800')}>
      <td role="cell" colSpan={colSpan} className={cn('border-t border-zinc-800/80', stacked && 'max-sm:block max-sm:border-0')}>
        {children}
      </td>
    </tr>
  )
}
