import type { Metadata } from 'next'
import { VideoDetailView } from '@/components/videos/video-detail'

export const metadata: Metadata = { title: '视频素材' }

export default async function VideoDetailPage({ params }: { params: Promise<{ id: string }> }) {
  return <VideoDetailView id={(await params).id} kind="free" />
}
