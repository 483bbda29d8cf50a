import type { Metadata } from 'next'
import { VideoStudio } from '@/components/video/video-studio'

export const metadata: Metadata = { title: 'AI 视频' }

export default function AiVideoPage() {
  // No Suspense boundary: the site renders every page on request (the nonce), so search params are
  // known on the server, and a boundary would hydrate later than the layout, after the first API
  // answers arrived, and mismatch the server's HTML (React's hydration error #418).
  return <VideoStudio />
}
