'use client'

import { useEffect, useMemo, useRef, useState } from 'react'
import { useWall, useWallWork, worksOfPages, type WallFilter, type WallItemJson } from '@/lib/api-client/resources/wall'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/card'
import { Loading } from '@/components/ui/spinner'
import { ImageViewer } from './image-viewer'
import { Masonry } from './masonry'
import { WallWorkPanel } from './wall-work-panel'
import { WorkTile } from './work-tile'

const slideOf = (w: WallItemJson) => ({ key: w.id, src: w.imageUrl, width: w.width, height: w.height, alt: w.prompt.slice(0, 80), video: w.video?.url })

/**
 * Which work the viewer shows, kept by id: a like or 取消收藏 refetches the list, and the
 * work may move (the hot order) or leave it (我的收藏); the viewer follows it, or closes.
 */
export function useOpenWork(works: WallItemJson[] | undefined): [number, (index: number) => void] {
  const [openId, setOpenId] = useState<string | null>(null)
  const index = openId === null || !works ? -1 : works.findIndex((w) => w.id === openId)
  return [index, (next) => setOpenId(works?.[next]?.id ?? null)]
}

/** Works in a masonry, opened in the viewer. */
export function WorkGrid({ works, maxColumns }: { works: WallItemJson[]; maxColumns?: number }) {
  const [open, setOpen] = useOpenWork(works)
  return (
    <>
      <Masonry items={works} maxColumns={maxColumns} render={(work, i) => <WorkTile key={work.id} work={work} onOpen={() => setOpen(i)} />} />
      <WorkViewer works={works} index={open} onIndexChange={setOpen} />
    </>
  )
}

/** The viewer over a list of works, open at `index` (-1: closed), with each work's panel. */
export function WorkViewer({ works, index, onIndexChange }: { works: WallItemJson[]; index: number; onIndexChange: (index: number) => void }) {
  return (
    <ImageViewer
      slides={works.map(slideOf)}
      index={index}
      onIndexChange={onIndexChange}
      onClose={() => onIndexChange(-1)}
      panel={(i) => (works[i] ? <WallWorkPanel work={works[i]} /> : null)}
    />
  )
}

/** The wall by cursor: loads the next page as its end scrolls into view (or on 加载更多). */
export function WallGallery({ filter, empty = '作品墙还没有作品' }: { filter: WallFilter; empty?: string }) {
  const query = useWall(filter)
  const works = useMemo(() => worksOfPages(query.data?.pages ?? []), [query.data])
  const sentinel = useRef<HTMLDivElement>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query

  useEffect(() => {
    const el = sentinel.current
    if (!el || !hasNextPage) return
    const observer = new IntersectionObserver((entries) => entries[0]?.isIntersecting && !isFetchingNextPage && fetchNextPage(), { rootMargin: '600px 0px' })
    observer.observe(el)
    return () => observer.disconnect()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage])

  if (query.isPending) return <Loading />
  if (query.isError) return <EmptyState>作品加载失败，请稍后刷新重试</EmptyState>
  if (works.length === 0) return <EmptyState>{empty}</EmptyState>
  return (
    <div className="space-y-6">
      <WorkGrid works={works} />
      <div ref={sentinel} className="flex min-h-12 items-center justify-center">
        {hasNextPage ? (
          <Button variant="ghost" loading={isFetchingNextPage} onClick={() => fetchNextPage()}>
            加载更多
          </Button>
        ) : (
          <span className="text-xs text-zinc-600">没有更多了</span>
        )}
      </div>
    </div>
  )
}

/** A shared link (?work=id): that work opens in the viewer over the page. */
export function SharedWork({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, isError } = useWallWork(id)
  useEffect(() => {
    if (isError) onClose()
  }, [isError, onClose])
  if (!data) return null
  return <ImageViewer slides={[slideOf(data)]} index={0} onIndexChange={() => {}} onClose={onClose} panel={() => <WallWorkPanel work={data} />} />
}
