// Page sizes and the page shape, shared with the browser's lists, so free of zod (see
// docs/ARCHITECTURE.md, Layers: browser code reaches no zod).

/** docs/PRODUCT.md §9: 20 per page. The hard maximum keeps one request cheap. */
export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

export type Page<T> = { list: T[]; total: number }
