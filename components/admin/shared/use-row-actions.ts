'use client'

import { useState } from 'react'
import { api } from '@/lib/api-client/request'
import { toast } from '@/lib/ui/toast-store'
import { attempt, useAction } from '@/lib/ui/use-action'

/**
 * What the admin lists do to a row at `${base}/${id}`: flip its enable switch, and delete
 * it once confirmed (`deleting` is the row the confirmation dialog asks about).
 */
export function useRowActions<Row extends { id: string | number }>(base: string, refresh: () => Promise<unknown>) {
  const [deleting, setDeleting] = useState<Row | null>(null)
  const [isDeleting, runDelete] = useAction()

  function toggleEnabled(row: Row & { enabled: boolean }) {
    return attempt(async () => {
      await api.patch(`${base}/${row.id}`, { enabled: !row.enabled })
      toast.success(row.enabled ? '已停用' : '已启用')
      await refresh()
    })
  }

  async function confirmDelete() {
    if (!deleting) return
    await runDelete(async () => {
      await api.delete(`${base}/${deleting.id}`)
      toast.success('已删除')
      setDeleting(null)
      await refresh()
    })
  }

  return { deleting, setDeleting, isDeleting, confirmDelete, toggleEnabled }
}
