import type { Metadata } from 'next'
import { CardManager } from '@/components/admin/cards/card-manager'

export const metadata: Metadata = { title: '卡密列表' }

export default function CardsManaPage() {
  return <CardManager />
}
