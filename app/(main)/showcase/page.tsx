import type { Metadata } from 'next'
import { ShowcaseView } from '@/components/wall/showcase-view'

export const metadata: Metadata = { title: '精选合集' }

export default function ShowcasePage() {
  return <ShowcaseView />
}
