'use client'

import { Toaster as Sonner } from 'sonner'

/** Where toasts show: top centre, stacked (never folded behind each other), in the site's dark colours. */
export function Toaster() {
  return (
    <Sonner
      theme="dark"
      position="top-center"
      expand
      visibleToasts={4}
      gap={8}
      containerAriaLabel="通知"
      toastOptions={{
        unstyled: true,
        classNames: {
          toast: 'flex w-full items-center justify-center rounded-lg px-4 py-2.5 text-sm shadow-xl',
          success: 'bg-emerald-600/95 text-white',
          error: 'bg-red-600/95 text-white',
          info: 'bg-zinc-800/95 text-zinc-100 ring-1 ring-zinc-700',
          icon: 'hidden',
        },
      }}
    />
  )
}
