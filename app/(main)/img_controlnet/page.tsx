import type { Metadata } from 'next'
import { LineartStudio } from '@/components/create/lineart-studio'

export const metadata: Metadata = { title: '线稿上色' }

export default function ImgControlnetPage() {
  return <LineartStudio title="线稿上色" />
}
