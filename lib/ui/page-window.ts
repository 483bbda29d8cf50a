/**
 * Which page numbers a pager shows (docs/PRODUCT.md §2.6: at most 6 numbers, ellipses, first and last
 * always present): e.g. page 10 of 20 → 1 … 9 10 11 12 … 20.
 */
export type PageItem = number | 'ellipsis-left' | 'ellipsis-right'

export function pageWindow(current: number, totalPages: number, maxNumbers = 6): PageItem[] {
  if (totalPages <= 0) return []
  const page = Math.min(Math.max(1, current), totalPages)
  if (totalPages <= maxNumbers) return Array.from({ length: totalPages }, (_, i) => i + 1)

  const middleCount = maxNumbers - 2
  let start = page - Math.floor((middleCount - 1) / 2)
  start = Math.max(2, Math.min(start, totalPages - middleCount))
  // Next to an end, the window grows into the slot the missing ellipsis frees.
  if (start === 2) return [...range(1, maxNumbers - 1), 'ellipsis-right', totalPages]
  if (start + middleCount - 1 >= totalPages - 1) return [1, 'ellipsis-left', ...range(totalPages - maxNumbers + 2, totalPages)]
  return [1, 'ellipsis-left', ...range(start, start + middleCount - 1), 'ellipsis-right', totalPages]
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}
