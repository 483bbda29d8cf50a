import type { Metadata } from 'next'
import { WallManager } from '@/components/admin/wall/wall-manager'

export const metadata: Metadata = { title: '作品墙管理' }

export default function ImageWallManaPage() {
  return <WallManager />
}
