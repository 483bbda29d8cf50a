'use client'

import Link from 'next/link'
import { useState } from 'react'
import { useMyVideos, useVideos, type VideoKindParam, type VideoListItem } from '@/lib/api-client/resources/videos'
import { useProfile } from '@/lib/api-client/resources/profile'
import { formatCents } from '@/lib/format'
import { cn } from '@/lib/ui/cn'
import { Button } from '@/components/ui/button'
import { EmptyState, PageTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/field'
import { Loading } from '@/components/ui/spinner'
import { VideoCard } from './video-card'
import { VideoPayDialog } from './video-pay-dialog'

const BASE: Record<VideoKindParam, string> = { free: '/video', paid: '/video_buy' }

/** /video (free material) and /video_buy (paid, with selection and 批量购买, and the 已购 tab). */
export function VideoBrowser({ kind }: { kind: VideoKindParam }) {
  const [tab, setTab] = useState<'all' | 'mine'>('all')
  const { isSignedIn } = useProfile()
  return (
    <div className="mx-auto max-w-6xl px-4 py-6">
      <PageTitle
        actions={
          kind === 'paid' && isSignedIn ? (
            <div role="tablist" className="flex rounded-lg bg-zinc-900 p-1 ring-1 ring-zinc-800">
              {(['all', 'mine'] as const).map((t) => (
                <button
                  key={t}
                  role="tab"
                  aria-selected={tab === t}
                  onClick={() => setTab(t)}
                  className={cn('h-8 rounded-md px-3 text-sm', tab === t ? 'bg-zinc-700 text-white' : 'text-zinc-400 hover:text-white')}
                >
                  {t === 'all' ? '全部素材' : '已购'}
                </button>
              ))}
            </div>
          ) : undefined
        }
      >
        {kind === 'free' ? '免费视频素材' : '付费视频素材'}
      </PageTitle>
      {tab === 'mine' ? <MyVideos /> : <VideoCatalogue kind={kind} />}
    </div>
  )
}

/** The grid with search, tags and (paid) selection and 批量购买; also the VIDEO / PAYMENT_VIDEO tabs of /home. */
export function VideoCatalogue({ kind }: { kind: VideoKindParam }) {
  const [keyword, setKeyword] = useState('')
  const [search, setSearch] = useState('')
  const [tag, setTag] = useState('')
  const [selected, setSelected] = useState<Map<string, VideoListItem>>(new Map())
  const [paying, setPaying] = useState(false)
  const query = useVideos({ kind, keyword: search || undefined, tag: tag || undefined })
  const videos = query.data?.pages.flatMap((p) => p.list) ?? []
  const tags = [...new Set(videos.flatMap((v) => v.tags))].slice(0, 20)
  const chosen = [...selected.values()].filter((v) => !v.bought)
  const total = chosen.reduce((s, v) => s + v.price, 0)
  const toggle = (v: VideoListItem) =>
    setSelected((m) => {
      const next = new Map(m)
      if (next.has(v.id)) next.delete(v.id)
      else next.set(v.id, v)
      return next
    })

  return (
    <>
      <form
        className="mb-4 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          setSearch(keyword.trim())
        }}
      >
        <Input value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder="搜索标题、描述或标签" aria-label="搜索" className="max-w-sm" />
        <Button type="submit" variant="secondary">
          搜索
        </Button>
      </form>
      {(tags.length > 0 || tag) && (
        <div className="mb-4 flex flex-wrap gap-2">
          {['', ...tags.filter((t) => t !== tag), ...(tag ? [tag] : [])].map((t) => (
            <button
              key={t || 'all'}
              onClick={() => setTag(t)}
              className={cn(
                'h-7 rounded-full px-3 text-xs ring-1',
                tag === t ? 'bg-brand-500/15 text-white ring-brand-500' : 'text-zinc-400 ring-zinc-700 hover:text-white',
              )}
            >
              {t || '全部'}
            </button>
          ))}
        </div>
      )}
      {query.isLoading ? (
        <Loading />
      ) : query.isError ? (
        <EmptyState>加载失败，请稍后重试</EmptyState>
      ) : videos.length === 0 ? (
        <EmptyState>{search || tag ? '没有符合条件的视频' : '暂无视频素材'}</EmptyState>
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {videos.map((v) => (
            <VideoCard
              key={v.id}
              video={v}
              href={`${BASE[kind]}/${v.id}`}
              selected={selected.has(v.id)}
              onToggle={kind === 'paid' ? () => toggle(v) : undefined}
            />
          ))}
        </div>
      )}
      {query.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            加载更多
          </Button>
        </div>
      )}
      {kind === 'paid' && chosen.length > 0 && (
        <div className="sticky bottom-4 mt-6 flex items-center justify-between gap-3 rounded-xl bg-zinc-900/95 p-3 ring-1 ring-zinc-700 backdrop-blur">
          <span className="text-sm text-zinc-300">
            已选 {chosen.length} 个，合计 <span className="font-semibold text-white tabular-nums">¥{formatCents(total)}</span>
          </span>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => setSelected(new Map())}>
              清空
            </Button>
            <Button onClick={() => setPaying(true)}>批量购买</Button>
          </div>
        </div>
      )}
      <VideoPayDialog
        items={chosen}
        open={paying}
        onClose={() => {
          setPaying(false)
          setSelected(new Map())
        }}
      />
    </>
  )
}

function MyVideos() {
  const mine = useMyVideos()
  if (mine.isLoading) return <Loading />
  if (mine.isError) return <EmptyState>加载失败，请稍后重试</EmptyState>
  if (!mine.data?.list.length)
    return (
      <EmptyState>
        还没有购买过视频素材，
        <Link href="/video_buy" className="text-brand-300 hover:underline">
          去看看
        </Link>
      </EmptyState>
    )
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {mine.data.list.map((v) => (
        <VideoCard key={v.id} video={v} href={`/video_buy/${v.id}`} />
      ))}
    </div>
  )
}
