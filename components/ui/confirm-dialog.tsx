'use client'

import type { ReactNode } from 'react'
import { FormDialog } from './form-dialog'

/** Asks before something that cannot be undone; the question is the dialog's description. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmText = '确定',
  danger,
  loading,
  onConfirm,
  onClose,
}: {
  open: boolean
  title: string
  children: ReactNode
  confirmText?: string
  danger?: boolean
  loading?: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  return (
    <FormDialog
      open={open}
      title={title}
      description={<span className="text-zinc-300">{children}</span>}
      onClose={onClose}
      busy={loading}
      submitLabel={confirmText}
      danger={danger}
      onConfirm={onConfirm}
    >
      {null}
    </FormDialog>
  )
}
