import type { Metadata } from 'next'
import { Suspense } from 'react'
import { WechatCallback } from '@/components/auth/wechat-callback'

export const metadata: Metadata = { title: '微信登录' }

export default function WechatAuthPage() {
  return (
    <Suspense>
      <WechatCallback />
    </Suspense>
  )
}
