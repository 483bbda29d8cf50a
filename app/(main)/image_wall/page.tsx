import type { Metadata } from 'next'
import { Suspense } from 'react'
import { WallView } from '@/components/wall/wall-view'

export const metadata: Metadata = { title: '作品墙' }

export default function ImageWallPage() {
  return (
    <Suspense>
      <WallView />
    </Suspense>
  )
}
