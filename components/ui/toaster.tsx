'use client'

import { Toaster as Sonner } from 'sonner'

/**
 * Where toasts show: top centre just under the header (on a phone, under its navigation row
 * too), stacked (never folded behind each other), in the site's dark colours. Over the header
 * they would hide the user menu and the navigation for as long as they last.
 */
export function Toaster() {
  return (
    <Sonner
      theme="dark"
      position="top-center"
      offset={{ top: 64 }}
      mobileOffset={{ top: 104 }}
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
