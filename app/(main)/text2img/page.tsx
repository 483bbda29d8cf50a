import type { Metadata } from 'next'
import { SdStudio } from '@/components/create/sd-studio'

export const metadata: Metadata = { title: '文生图' }

export default function Text2ImgPage() {
  return <SdStudio title="文生图" type="SD_TEXT2IMG" historyTypes={['SD_TEXT2IMG', 'MAKE_SAME', 'SD_XIAOLIMAO']} />
}
