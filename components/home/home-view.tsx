'use client'

import Link from 'next/link'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { formatCents } from '@/lib/format'
import { USER_MENU } from '@/lib/navigation'
import { useMainNav } from '@/components/create/use-catalog'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'

/** The landing page: what the site is, the way in, and (signed in) the user's standing. */
export function HomeView() {
  const { data: config } = useSiteInfo()
  const { profile, isSignedIn } = useProfile()
  const nav = useMainNav()
  const destinations = [...nav.filter((n) => n.href !== '/'), ...(isSignedIn ? USER_MENU : [])]

  return (
    <div className="space-y-8">
      <section className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600/30 via-zinc-900 to-accent-400/10 px-6 py-12 ring-1 ring-zinc-800 sm:px-10 sm:py-16">
        <div className="pointer-events-none absolute -right-20 -top-20 size-72 rounded-full bg-brand-500/20 blur-3xl" />
        <h1 className="relative text-3xl font-bold tracking-tight text-white sm:text-5xl">{config?.name}</h1>
        <p className="relative mt-4 max-w-2xl text-base leading-relaxed text-zinc-300 sm:text-lg">{config?.description}</p>
        <div className="relative mt-8 flex flex-wrap gap-3">
          {isSignedIn === undefined ? null : isSignedIn ? (
            <Link href="/account">
              <Button size="lg">我的账户</Button>
            </Link>
          ) : (
            <>
              <Link href="/login_by_password?mode=register">
                <Button size="lg">免费注册</Button>
              </Link>
              <Link href="/login">
                <Button size="lg" variant="secondary">
                  登录
                </Button>
              </Link>
            </>
          )}
        </div>
      </section>

      {profile && (
        <Card>
          <div className="flex flex-wrap items-center gap-x-10 gap-y-4">
            <div>
              <div className="text-xs text-zinc-500">欢迎回来</div>
              <div className="mt-1 text-lg font-medium text-white">{profile.name}</div>
            </div>
            <div>
              <div className="text-xs text-zinc-500">积分</div>
              <div className="mt-1 text-lg font-medium text-white">{profile.points}</div>
            </div>
            <div>
              <div className="text-xs text-zinc-500">余额（元）</div>
              <div className="mt-1 text-lg font-medium text-white">{formatCents(profile.balance)}</div>
            </div>
          </div>
        </Card>
      )}

      {destinations.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {destinations.map((d) => (
            <Link key={d.href} href={d.href} className="rounded-2xl bg-zinc-900/70 p-5 ring-1 ring-zinc-800 transition hover:ring-brand-500/60">
              <div className="font-medium text-white">{d.label}</div>
              {d.description && <div className="mt-1 text-xs text-zinc-500">{d.description}</div>}
            </Link>
          ))}
        </div>
      )}
    </div>
  )
}
