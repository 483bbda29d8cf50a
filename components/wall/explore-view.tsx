'use client'

import { useState, type FormEvent } from 'react'
import type { WallType } from '@/lib/wall/schemas'
import { Button } from '@/components/ui/button'
import { PageTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { VideoCatalogue } from '@/components/videos/video-browser'
import { Tabs } from './tabs'
import { WallGallery } from './wall-gallery'

/** docs/PRODUCT.md §15: the explore filter of §3.2, after 全部, then the AI clips on the wall. */
type ExploreTab = 'ALL' | WallType | 'FREE_MATERIAL' | 'PAID_MATERIAL'

const TABS: { value: ExploreTab; label: string }[] = [
  { value: 'ALL', label: '全部' },
  { value: 'MID_JOURNEY', label: 'MJ' },
  { value: 'FREE_MATERIAL', label: '视频素材' },
  { value: 'PAID_MATERIAL', label: '付费视频' },
  { value: 'STABLE_DIFFUSION', label: 'SD' },
  { value: 'VIDEO', label: 'AI视频' },
]

/** /home: explore the wall by kind and by words of the prompt; the video tabs show the video material (docs/PRODUCT.md §18). */
export function ExploreView() {
  const [tab, setTab] = useState<ExploreTab>('ALL')
  const [draft, setDraft] = useState('')
  const [q, setQ] = useState('')
  const isMaterial = tab === 'FREE_MATERIAL' || tab === 'PAID_MATERIAL'

  function search(e: FormEvent) {
    e.preventDefault()
    setQ(draft.trim())
  }

  return (
    <div className="space-y-5">
      <PageTitle>探索</PageTitle>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Tabs label="分类" value={tab} onChange={setTab} options={TABS} />
        {!isMaterial && (
          <form onSubmit={search} className="flex w-full gap-2 sm:w-auto" role="search">
            <Input
              aria-label="搜索提示词"
              placeholder="搜索提示词"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              className="sm:w-64"
              maxLength={100}
            />
            <Button type="submit" variant="secondary">
              搜索
            </Button>
          </form>
        )}
      </div>
      {isMaterial ? (
        <VideoCatalogue key={tab} kind={tab === 'FREE_MATERIAL' ? 'free' : 'paid'} />
      ) : (
        <WallGallery
          key={`${tab}:${q}`}
          filter={{ sort: 'new', ...(tab === 'ALL' ? {} : { type: tab as WallType }), ...(q ? { q } : {}) }}
          empty={q ? `没有找到包含“${q}”的作品` : '这个分类还没有作品'}
        />
      )}
    </div>
  )
}
