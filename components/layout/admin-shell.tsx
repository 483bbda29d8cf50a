'use client'

import Link from 'next/link'
import { usePathname, useRouter } from 'next/navigation'
import { useEffect, type ReactNode } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { canEnterAdmin } from '@/lib/auth/permissions'
import { ADMIN_NAV } from '@/lib/navigation'
import { loginUrlFor } from '@/lib/safe-redirect'
import { cn } from '@/lib/ui/cn'
import { LoadFailed } from '@/components/ui/load-failed'
import { Loading } from '@/components/ui/spinner'
import { SiteBrand } from './site-brand'
import { UserMenu } from './user-menu'

/**
 * The admin layout: side navigation on desktops, a scrolling row on phones. Only
 * ADMIN and MANAGER get in; others are sent home (the API checks every call anyway).
 */
export function AdminShell({ children }: { children: ReactNode }) {
  const { profile, isSignedIn, loadFailed, refetch } = useProfile()
  const pathname = usePathname()
  const router = useRouter()
  const isAllowed = profile ? canEnterAdmin(profile.role) : undefined

  useEffect(() => {
    if (isSignedIn === false) router.replace(loginUrlFor(pathname))
    else if (isAllowed === false) router.replace('/')
  }, [isSignedIn, isAllowed, pathname, router])

  const links = ADMIN_NAV.map((item) => (
    <Link
      key={item.href}
      href={item.href}
      className={cn(
        'shrink-0 rounded-lg px-3 py-2 text-sm transition',
        pathname.startsWith(item.href) ? 'bg-brand-600/20 font-medium text-brand-300' : 'text-zinc-400 hover:bg-zinc-900 hover:text-white',
      )}
    >
      {item.label}
    </Link>
  ))

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-zinc-800/80 bg-zinc-950/90 backdrop-blur">
        <div className="flex h-14 items-center gap-4 px-4">
          <SiteBrand href="/admin/user_mana" suffix="管理后台" />
          <Link href="/" className="ml-auto text-sm text-zinc-400 hover:text-white">
            返回前台
          </Link>
          <UserMenu />
        </div>
        <nav aria-label="后台导航" className="flex gap-1 overflow-x-auto px-3 pb-2 lg:hidden">
          {links}
        </nav>
      </header>
      <div className="flex flex-1">
        <nav aria-label="后台导航" className="hidden w-52 shrink-0 flex-col gap-1 border-r border-zinc-900 p-3 lg:flex">
          {links}
        </nav>
        <main className="min-w-0 flex-1 px-4 py-6 sm:px-6">
          {isAllowed ? children : loadFailed ? <LoadFailed onRetry={() => void refetch()} /> : <Loading />}
        </main>
      </div>
    </div>
  )
}
