import type { Metadata } from 'next'
import { InpaintStudio } from '@/components/create/inpaint-studio'

export const metadata: Metadata = { title: '局部重绘' }

export default function ImgInpaintPage() {
  return <InpaintStudio title="局部重绘" />
}
