'use client'

import { usePathname, useRouter, useSearchParams } from 'next/navigation'
import { useCallback } from 'react'
import { useProfile } from '@/lib/api-client/resources/profile'
import { WALL_TYPES, type WallType } from '@/lib/wall/labels'
import { PageTitle } from '@/components/ui/card'
import { Tabs } from './tabs'
import { SharedWork, WallGallery } from './wall-gallery'

type TypeTab = 'ALL' | WallType

/** /image_wall: the works users published and the admin let on, newest or most liked, by model kind; signed in, 我的收藏 too. */
export function WallView() {
  const params = useSearchParams()
  const router = useRouter()
  const pathname = usePathname()
  const { isSignedIn } = useProfile()
  const requested = params.get('sort')
  const sort: 'new' | 'hot' | 'mine' = requested === 'hot' || (requested === 'mine' && isSignedIn) ? requested : 'new'
  const typeParam = params.get('type')
  const type: TypeTab = WALL_TYPES.find((t) => t === typeParam) ?? 'ALL'
  const shared = params.get('work')

  const set = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(params.toString())
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) next.delete(k)
        else next.set(k, v)
      }
      const text = next.toString()
      router.replace(text ? `${pathname}?${text}` : pathname, { scroll: false })
    },
    [params, pathname, router],
  )

  return (
    <div>
      <PageTitle
        actions={
          <>
            <Tabs
              label="排序"
              value={sort}
              onChange={(v) => set({ sort: v === 'new' ? null : v })}
              options={[
                { value: 'new', label: '最新' },
                { value: 'hot', label: '最热' },
                ...(isSignedIn ? [{ value: 'mine' as const, label: '我的收藏' }] : []),
              ]}
            />
            <Tabs
              label="类型"
              value={type}
              onChange={(v) => set({ type: v === 'ALL' ? null : v })}
              options={[
                { value: 'ALL', label: '全部' },
                { value: 'STABLE_DIFFUSION', label: 'SD' },
                { value: 'MID_JOURNEY', label: 'MJ' },
                { value: 'VIDEO', label: '视频' },
              ]}
            />
          </>
        }
      >
        作品墙
      </PageTitle>
      <WallGallery
        filter={{ sort: sort === 'hot' ? 'hot' : 'new', ...(sort === 'mine' ? { favorites: 1 } : {}), ...(type === 'ALL' ? {} : { type }) }}
        empty={sort === 'mine' ? '还没有收藏作品，打开作品点“收藏”即可' : undefined}
      />
      {shared && <SharedWork id={shared} onClose={() => set({ work: null })} />}
    </div>
  )
}
