import type { Metadata } from 'next'
import { MjStudio } from '@/components/mj/mj-studio'

export const metadata: Metadata = { title: 'Midjourney' }

export default function MjPage() {
  return <MjStudio />
}
