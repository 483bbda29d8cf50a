'use client'

import * as Primitive from '@radix-ui/react-dialog'
import { useRef, type ReactNode } from 'react'
import { cn } from '@/lib/ui/cn'

type Props = {
  open: boolean
  title: ReactNode
  /** A sentence under the title that says what the dialog is for (announced with it). */
  description?: ReactNode
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
  className?: string
}

/**
 * A modal dialog (Radix): overlay, title, optional description, body and footer. Focus moves
 * into it once when it opens (to its first field or button), stays inside while it is open,
 * and goes back to what had it before when it closes; Escape and a click outside close it.
 * A re-render of the page behind never moves the focus. A bottom sheet on phones, centred
 * from `sm` up.
 */
export function Dialog({ open, title, description, onClose, children, footer, className }: Props) {
  // Radix gives focus back to its own Trigger; these dialogs are opened by plain buttons
  // (often in a table row), so the element that had focus when it opened gets it back.
  const opener = useRef<HTMLElement | null>(null)
  return (
    <Primitive.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Primitive.Portal>
        <Primitive.Overlay className="fixed inset-0 z-50 flex items-end justify-center bg-black/70 p-0 backdrop-blur-sm sm:items-center sm:p-4">
          <Primitive.Content
            // Without a description Radix would look for one and warn; the title alone names the dialog.
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={() => {
              opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault()
              if (opener.current?.isConnected) opener.current.focus()
              opener.current = null
            }}
            className={cn(
              'relative max-h-[90dvh] w-full overflow-y-auto rounded-t-2xl bg-zinc-900 p-5 shadow-2xl ring-1 ring-zinc-800 focus:outline-none sm:max-w-lg sm:rounded-2xl sm:p-6',
              className,
            )}
          >
            <Primitive.Title className="mb-4 text-lg font-semibold text-white">{title}</Primitive.Title>
            {description && <Primitive.Description className="-mt-2 mb-4 text-sm text-zinc-400">{description}</Primitive.Description>}
            {children}
            {footer && <div className="mt-6 flex justify-end gap-2">{footer}</div>}
          </Primitive.Content>
        </Primitive.Overlay>
      </Primitive.Portal>
    </Primitive.Root>
  )
}
