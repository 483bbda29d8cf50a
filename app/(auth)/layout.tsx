import type { ReactNode } from 'react'
import { SiteBrand } from '@/components/layout/site-brand'

/** The auth layout: a centred card on a quiet background, usable on a phone. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center overflow-hidden px-4 py-10">
      <div className="pointer-events-none absolute -top-40 left-1/2 h-96 w-[40rem] -translate-x-1/2 rounded-full bg-brand-600/20 blur-3xl" />
      <div className="relative mb-8">
        <SiteBrand />
      </div>
      <div className="relative w-full max-w-sm rounded-2xl bg-zinc-900/80 p-6 shadow-2xl ring-1 ring-zinc-800 backdrop-blur sm:p-8">{children}</div>
    </div>
  )
}
