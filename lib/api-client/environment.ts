import { configureRequest } from './request'

/** The page's part of the request layer (docs/PRODUCT.md §8): how its failures are shown, `toast(message, durationMs)`. */
export function showRequestFailuresWith(toast: (message: string, durationMs: number) => void): void {
  configureRequest({ toast })
}
