import type { Metadata } from 'next'
import { VideoManager } from '@/components/admin/videos/video-manager'

export const metadata: Metadata = { title: '视频素材' }

export default function VideoManaPage() {
  return <VideoManager />
}
