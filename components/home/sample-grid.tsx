'use client'

import type { WallItemJson } from '@/lib/api-client/resources/wall'
import { useOpenWork, WorkViewer } from '@/components/wall/wall-gallery'
import { WorkTile } from '@/components/wall/work-tile'

/** How many works the landing page asks for: two rows of four on a wider screen. */
export const SAMPLE_COUNT = 8
/** A phone shows three rows of two. */
const PHONE_SAMPLES = 6

/**
 * The landing page's samples in square cells, the same grid while they load, once they are in
 * and when the wall is empty: its height never depends on the works, so nothing below it moves
 * (docs/RELIABILITY.md, speed). Cells without a work stay as quiet placeholders.
 */
export function SampleGrid({ works }: { works: WallItemJson[] | undefined }) {
  const [open, setOpen] = useOpenWork(works)
  const loading = works === undefined
  const empty = works?.length === 0
  return (
    <div className="relative">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-hidden={loading || empty || undefined} data-testid="sample-grid">
        {Array.from({ length: SAMPLE_COUNT }, (_, i) => {
          const work = works?.[i]
          return (
            <div key={work?.id ?? `cell-${i}`} className={`aspect-square ${i >= PHONE_SAMPLES ? 'hidden sm:block' : ''}`}>
              {work ? (
                <WorkTile work={work} fill onOpen={() => setOpen(i)} />
              ) : (
                <div className={`h-full rounded-xl ring-1 ring-zinc-800 ${loading ? 'animate-pulse bg-zinc-900' : 'bg-zinc-900/40'}`} />
              )}
            </div>
          )
        })}
      </div>
      {empty && (
        <div className="absolute inset-0 flex items-center justify-center p-6">
          <p className="rounded-2xl bg-zinc-950/90 px-5 py-3 text-center text-sm text-zinc-400 ring-1 ring-zinc-800">作品墙还没有作品，来创作第一幅吧</p>
        </div>
      )}
      {works && works.length > 0 && <WorkViewer works={works} index={open} onIndexChange={setOpen} />}
    </div>
  )
}
