'use client'

import { useState } from 'react'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'

type Id = string | number

/**
 * What the admin lists do to a row: flip its enable switch (`setEnabled`), and delete it
 * once confirmed (`deleting` is the row the confirmation dialog asks about). Both are the
 * resource's mutations, which refresh the list themselves.
 */
export function useRowActions<Row extends { id: Id }>({
  remove,
  setEnabled,
}: {
  remove: (id: Row['id']) => Promise<unknown>
  setEnabled?: (id: Row['id'], enabled: boolean) => Promise<unknown>
}) {
  const [deleting, setDeleting] = useState<Row | null>(null)
  const [isDeleting, runDelete] = useAction()

  function toggleEnabled(row: Row & { enabled: boolean }) {
    return attempt(async () => {
      await setEnabled?.(row.id, !row.enabled)
      toast.success(row.enabled ? '已停用' : '已启用')
    })
  }

  async function confirmDelete() {
    if (!deleting) return
    await runDelete(async () => {
      await remove(deleting.id)
      toast.success('已删除')
      setDeleting(null)
    })
  }

  return { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled }
}
