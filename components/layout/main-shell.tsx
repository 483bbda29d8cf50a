'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import type { ReactNode } from 'react'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { ICP_LOOKUP_URL, LEGAL_LINKS } from '@/lib/navigation'
import { useMainNav } from '@/components/create/use-catalog'
import { cn } from '@/lib/ui/cn'
import { SiteBrand } from './site-brand'
import { UserMenu } from './user-menu'

function isActive(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`)
}

/** The main layout: header with brand, navigation and user menu; a scrolling nav row on phones. */
export function MainShell({ children }: { children: ReactNode }) {
  const pathname = usePathname()
  const { data: config } = useSiteInfo()
  const nav = useMainNav()
  const links = nav.map((item) => (
    <Link
      key={item.href}
      href={item.href}
      className={cn(
        'shrink-0 rounded-lg px-3 py-1.5 text-sm transition',
        isActive(pathname, item.href) ? 'bg-zinc-800 text-white' : 'text-zinc-400 hover:text-white',
      )}
    >
      {item.label}
    </Link>
  ))
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-zinc-800/80 bg-zinc-950/85 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-4 px-4">
          <SiteBrand />
          <nav aria-label="主导航" className="hidden flex-1 items-center gap-1 md:flex">
            {links}
          </nav>
          <div className="ml-auto md:ml-0">
            <UserMenu />
          </div>
        </div>
        <nav aria-label="主导航" className="flex gap-1 overflow-x-auto px-3 pb-2 md:hidden">
          {links}
        </nav>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:py-8">{children}</main>
      <footer className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 border-t border-zinc-900 px-4 py-6 text-center text-xs text-zinc-600">
        <span>© {config?.name}</span>
        <Link href={LEGAL_LINKS.userAgreement.href} className="hover:text-zinc-400">
          {LEGAL_LINKS.userAgreement.label}
        </Link>
        <Link href={LEGAL_LINKS.privacyPolicy.href} className="hover:text-zinc-400">
          {LEGAL_LINKS.privacyPolicy.label}
        </Link>
        {/* The filing number must link to the MIIT filing system (ICP 备案 rules). */}
        {config?.icp && (
          <a href={ICP_LOOKUP_URL} target="_blank" rel="noreferrer" className="hover:text-zinc-400">
            {config.icp}
          </a>
        )}
      </footer>
    </div>
  )
}
