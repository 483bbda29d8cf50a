import type { Metadata } from 'next'
import { ExploreView } from '@/components/wall/explore-view'

export const metadata: Metadata = { title: '探索' }

export default function ExplorePage() {
  return <ExploreView />
}
