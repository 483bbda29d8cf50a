import type { Metadata } from 'next'
import { VideoBrowser } from '@/components/videos/video-browser'

export const metadata: Metadata = { title: '付费视频素材' }

export default function VideoBuyPage() {
  return <VideoBrowser kind="paid" />
}
