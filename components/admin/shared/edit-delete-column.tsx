import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import type { Column } from '@/components/ui/data-table'

/** The 操作 column of a console list: 编辑, any buttons of the row's own, then 删除. */
export function editDeleteColumn<T>({
  onEdit,
  onDelete,
  extra,
}: {
  onEdit: (row: T) => void
  onDelete: (row: T) => void
  extra?: (row: T) => ReactNode
}): Column<T> {
  return {
    header: '操作',
    mobile: 'actions',
    cell: (row) => (
      <div className="flex flex-wrap gap-1">
        <Button size="sm" variant="ghost" onClick={() => onEdit(row)}>
          编辑
        </Button>
        {extra?.(row)}
        <Button size="sm" variant="ghost" className="text-red-400" onClick={() => onDelete(row)}>
          删除
        </Button>
      </div>
    ),
  }
}
