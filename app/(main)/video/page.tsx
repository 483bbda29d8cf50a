import type { Metadata } from 'next'
import { VideoBrowser } from '@/components/videos/video-browser'

export const metadata: Metadata = { title: '免费视频素材' }

export default function VideoPage() {
  return <VideoBrowser kind="free" />
}
