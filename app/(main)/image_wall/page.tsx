import type { Metadata } from 'next'
import { WallView } from '@/components/wall/wall-view'

export const metadata: Metadata = { title: '作品墙' }

export default function ImageWallPage() {
  // No Suspense boundary: the site renders every page on request (the nonce), so search params are
  // known on the server, and a boundary would hydrate later than the layout, after the first API
  // answers arrived, and mismatch the server's HTML (React's hydration error #418).
  return <WallView />
}
