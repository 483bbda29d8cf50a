import type { Metadata } from 'next'
import { MyCardsView } from '@/components/cards/my-cards-view'

export const metadata: Metadata = { title: '我的卡密' }

export default function MyCardsPage() {
  return <MyCardsView />
}
