import type { Metadata } from 'next'
import { Suspense } from 'react'
import { VideoStudio } from '@/components/video/video-studio'

export const metadata: Metadata = { title: 'AI 视频' }

export default function AiVideoPage() {
  return (
    <Suspense>
      <VideoStudio />
    </Suspense>
  )
}
