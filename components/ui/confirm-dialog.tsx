'use client'

import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog } from './dialog'

export function ConfirmDialog({ open, title, children, confirmText = '确定', danger, loading, onConfirm, onClose }: { open: boolean; title: string; children: ReactNode; confirmText?: string; danger?: boolean; loading?: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            取消
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} loading={loading} onClick={onConfirm}>
            {confirmText}
          </Button>
        </>
      }
    >
      <div className="text-sm text-zinc-300">{children}</div>
    </Dialog>
  )
}
