'use client'

import type { ReactNode } from 'react'
import { FormDialog } from './form-dialog'

export function ConfirmDialog({ open, title, children, confirmText = '确定', danger, loading, onConfirm, onClose }: { open: boolean; title: string; children: ReactNode; confirmText?: string; danger?: boolean; loading?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <FormDialog open={open} title={title} onClose={onClose} busy={loading} submitLabel={confirmText} danger={danger} onConfirm={onConfirm}>
      <div className="text-sm text-zinc-300">{children}</div>
    </FormDialog>
  )
}
