'use client'

import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'

type Sized = { id: string; width: number; height: number }

/** How many columns fit a width: two on a phone, up to five on a wide screen. */
export function columnsFor(width: number): number {
  if (width < 640) return 2
  if (width < 900) return 3
  if (width < 1200) return 4
  return 5
}

/**
 * Places each item in the shortest column so far, by its known aspect ratio: the layout is
 * decided before any image loads (no jumps), and appending a page never moves earlier items.
 */
export function placeInColumns<T extends Sized>(items: T[], columns: number): T[][] {
  const out: T[][] = Array.from({ length: columns }, () => [])
  const heights = new Array<number>(columns).fill(0)
  for (const item of items) {
    const shortest = heights.indexOf(Math.min(...heights))
    out[shortest]!.push(item)
    heights[shortest]! += item.height / Math.max(1, item.width)
  }
  return out
}

/**
 * A masonry of items with known sizes; nothing is drawn until the width is known. The width
 * is measured before the first paint (a layout effect), so a page's own effects (the wall's
 * load-more sentinel) never see the empty, zero-height masonry and fetch a page too early.
 */
export function Masonry<T extends Sized>({ items, render, maxColumns }: { items: T[]; render: (item: T, index: number) => ReactNode; maxColumns?: number }) {
  const ref = useRef<HTMLDivElement>(null)
  const [columns, setColumns] = useState(0)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = () => setColumns(Math.min(maxColumns ?? 5, columnsFor(el.clientWidth)))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [maxColumns])
  const indexOf = new Map(items.map((item, i) => [item.id, i]))
  return (
    <div ref={ref} className="flex items-start gap-3" data-testid="masonry">
      {columns > 0 &&
        placeInColumns(items, columns).map((column, c) => (
          <div key={c} className="flex min-w-0 flex-1 flex-col gap-3">
            {column.map((item) => render(item, indexOf.get(item.id) ?? 0))}
          </div>
        ))}
    </div>
  )
}
