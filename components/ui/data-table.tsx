import type { Key, ReactNode } from 'react'
import { cn } from '@/lib/ui/cn'
import { EmptyState } from './card'
import { Loading } from './spinner'
import { Table, TableMessage, Td, Th, stackedCell, type MobileCell } from './table'

export type Column<Row> = {
  header: string
  cell: (row: Row) => ReactNode
  /** Classes of the cell (desktop and phone). */
  className?: string
  /**
   * On a phone each row is a card: 'line' (the default) shows "header: value", 'title'
   * heads the card, 'actions' closes it with its buttons, 'hide' leaves the column out.
   * Status, amounts and the action of a row stay: hide only what the row can do without.
   */
  mobile?: MobileCell
}

/**
 * A table of `rows` by `columns`: a header row, a loading row, an empty row (shown only
 * once loaded). At 390 px the rows are cards (see Table), so the key columns stay on screen.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  isLoading,
  isError,
  empty,
  rowClassName,
  className,
}: {
  columns: Column<Row>[]
  rows: Row[] | undefined
  rowKey: (row: Row) => Key
  isLoading: boolean
  /** The list could not be loaded (the request layer has said why): a row says so instead of an empty table. */
  isError?: boolean
  empty: ReactNode
  rowClassName?: string
  className?: string
}) {
  return (
    <Table stacked className={className}>
      <thead role="rowgroup" className="max-sm:sr-only">
        <tr role="row">
          {columns.map((c) => (
            <Th key={c.header}>{c.header}</Th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="max-sm:block max-sm:space-y-3">
        {isLoading && (
          <TableMessage colSpan={columns.length} stacked>
            <Loading />
          </TableMessage>
        )}
        {!isLoading && isError && !rows && (
          <TableMessage colSpan={columns.length} stacked>
            <EmptyState>加载失败，请稍后刷新重试</EmptyState>
          </TableMessage>
        )}
        {!isLoading && rows?.length === 0 && (
          <TableMessage colSpan={columns.length} stacked>
            <EmptyState>{empty}</EmptyState>
          </TableMessage>
        )}
        {rows?.map((row) => (
          <tr
            key={rowKey(row)}
            role="row"
            className={cn(
              'max-sm:flex max-sm:flex-col max-sm:rounded-xl max-sm:bg-zinc-900/60 max-sm:px-4 max-sm:py-3 max-sm:ring-1 max-sm:ring-zinc-800',
              rowClassName,
            )}
          >
            {columns.map((c) => (
              <Td key={c.header} data-label={c.header} className={cn(c.className, stackedCell[c.mobile ?? 'line'])}>
                {c.cell(row)}
              </Td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  )
}
