'use client'

import { ServerError } from '@/components/app/server-error'

/** A page below the root layout failed (docs/PRODUCT.md §2.6a); the layout around it still stands. */
export default function PageError() {
  return <ServerError />
}
