import type { ReactNode } from 'react'
import { EmptyState } from './card'
import { Loading } from './spinner'
import { Table, TableMessage, Th } from './table'

/** A `Table` with a header row, a loading row, an empty row (shown only once loaded), then `children`. */
export function DataTable({ columns, isLoading, isEmpty, empty, children }: { columns: string[]; isLoading: boolean; isEmpty: boolean; empty: ReactNode; children: ReactNode }) {
  return (
    <Table>
      <thead>
        <tr>
          {columns.map((c) => (
            <Th key={c}>{c}</Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {isLoading && (
          <TableMessage colSpan={columns.length}>
            <Loading />
          </TableMessage>
        )}
        {!isLoading && isEmpty && (
          <TableMessage colSpan={columns.length}>
            <EmptyState>{empty}</EmptyState>
          </TableMessage>
        )}
        {children}
      </tbody>
    </Table>
  )
}
