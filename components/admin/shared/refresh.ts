/** docs/PRODUCT.md §2.4: while anything on a console page is in progress (a card PENDING, a task running), it refreshes every 2.5 s. */
export const PENDING_REFRESH_MS = 2500
