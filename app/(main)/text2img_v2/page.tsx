import type { Metadata } from 'next'
import { Suspense } from 'react'
import { CreateHub } from '@/components/create/create-hub'

export const metadata: Metadata = { title: 'AI 创作' }

export default function Text2ImgV2Page() {
  return (
    <Suspense>
      <CreateHub />
    </Suspense>
  )
}
