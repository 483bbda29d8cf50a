import type { Metadata } from 'next'
import { VideoPurchaseReport } from '@/components/admin/videos/video-purchase-report'

export const metadata: Metadata = { title: '素材购买' }

export default function VideoBuyManaPage() {
  return <VideoPurchaseReport />
}
