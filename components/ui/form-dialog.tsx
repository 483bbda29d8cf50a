'use client'

import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog } from './dialog'

type Props = {
  open?: boolean
  title: ReactNode
  description?: ReactNode
  onClose: () => void
  /** Busy: the submit button shows a spinner and is disabled. */
  busy?: boolean
  submitLabel?: ReactNode
  submitDisabled?: boolean
  danger?: boolean
  className?: string
  children: ReactNode
} & ({ formId: string; onConfirm?: never } | { formId?: never; onConfirm: () => void })

/** A dialog whose footer is 取消 and a submit button: bound to the form `formId`, or calling `onConfirm`. */
export function FormDialog({
  open = true,
  title,
  description,
  onClose,
  busy,
  submitLabel,
  submitDisabled,
  danger,
  className,
  formId,
  onConfirm,
  children,
}: Props) {
  return (
    <Dialog
      open={open}
      title={title}
      description={description}
      onClose={onClose}
      className={className}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button
            type={formId ? 'submit' : 'button'}
            form={formId}
            variant={danger ? 'danger' : 'primary'}
            loading={busy}
            disabled={submitDisabled}
            onClick={onConfirm}
          >
            {submitLabel ?? '保存'}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  )
}
