'use client'

import Link from 'next/link'
import { useProfile } from '@/lib/api-client/resources/profile'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'
import { useFeaturedWorks } from '@/lib/api-client/resources/wall'
import { formatCents } from '@/lib/format'
import { USER_MENU } from '@/lib/navigation'
import { useMainNav } from '@/components/create/use-catalog'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { PriceSection } from './price-section'
import { SAMPLE_COUNT, SampleGrid } from './sample-grid'

const SHOWROOM = new Set(['/', '/image_wall', '/showcase', '/home'])

/** The landing page: works made here, what each mode does, the prices, the way in, and (signed in) the user's standing. */
export function HomeView() {
  const { data: config } = useSiteInfo()
  const { profile, isSignedIn } = useProfile()
  const { data: samples, isPending } = useFeaturedWorks(SAMPLE_COUNT)
  const nav = useMainNav()
  const modes = nav.filter((n) => !SHOWROOM.has(n.href))

  return (
    <div className="space-y-10">
      <section className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600/30 via-zinc-900 to-accent-400/10 px-6 py-10 ring-1 ring-zinc-800 sm:px-10 sm:py-14">
        <div className="pointer-events-none absolute -right-20 -top-20 size-72 rounded-full bg-brand-500/20 blur-3xl" />
        <h1 className="relative text-3xl font-bold tracking-tight text-white sm:text-5xl">{config?.name}</h1>
        <p className="relative mt-4 max-w-2xl text-base leading-relaxed text-zinc-300 sm:text-lg">{config?.description}</p>
        <div className="relative mt-8 flex min-h-12 flex-wrap gap-3">
          <Link href="/text2img">
            <Button size="lg">开始创作</Button>
          </Link>
          {isSignedIn === false && (
            <Link href="/login_by_password?mode=register">
              <Button size="lg" variant="secondary">
                免费注册
              </Button>
            </Link>
          )}
          {isSignedIn && (
            <Link href="/account">
              <Button size="lg" variant="secondary">
                我的账户
              </Button>
            </Link>
          )}
        </div>
      </section>

      {/* Drawn as soon as the token is known, the figures filled in when the profile arrives: the samples below do not move then. */}
      {isSignedIn && (
        <Card>
          <div className="flex flex-wrap items-center gap-x-10 gap-y-4">
            <div>
              <div className="text-xs text-zinc-500">欢迎回来</div>
              <div className="mt-1 text-lg font-medium text-white">{profile?.name ?? '\u00a0'}</div>
            </div>
            <div>
              <div className="text-xs text-zinc-500">积分</div>
              <div className="mt-1 text-lg font-medium text-white">{profile ? profile.points : '—'}</div>
            </div>
            <div>
              <div className="text-xs text-zinc-500">余额（元）</div>
              <div className="mt-1 text-lg font-medium text-white">{profile ? formatCents(profile.balance) : '—'}</div>
            </div>
          </div>
        </Card>
      )}

      <section aria-labelledby="samples" className="space-y-4">
        <div className="flex items-end justify-between gap-3">
          <div>
            <h2 id="samples" className="text-lg font-medium text-white sm:text-xl">
              大家正在创作
            </h2>
            <p className="mt-1 text-xs text-zinc-500">来自作品墙，点开查看提示词，一键做同款</p>
          </div>
          <Link href="/image_wall" className="shrink-0 text-sm text-brand-300 hover:text-brand-200">
            进入作品墙 →
          </Link>
        </div>
        <SampleGrid works={isPending ? undefined : (samples ?? [])} />
      </section>

      {modes.length > 0 && (
        <section aria-labelledby="modes" className="space-y-4">
          <h2 id="modes" className="text-lg font-medium text-white sm:text-xl">
            创作方式
          </h2>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {[...modes, ...(isSignedIn ? USER_MENU : [])].map((d) => (
              <Link key={d.href} href={d.href} className="rounded-2xl bg-zinc-900/70 p-5 ring-1 ring-zinc-800 transition hover:ring-brand-500/60">
                <div className="font-medium text-white">{d.label}</div>
                {d.description && <div className="mt-1 text-xs text-zinc-500">{d.description}</div>}
              </Link>
            ))}
          </div>
        </section>
      )}

      <PriceSection signedIn={isSignedIn} />
    </div>
  )
}
