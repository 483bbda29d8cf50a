import type { Metadata } from 'next'
import { Suspense } from 'react'
import { WechatLogin } from '@/components/auth/wechat-login'

export const metadata: Metadata = { title: '微信登录' }

export default function LoginByWechatPage() {
  return (
    <Suspense>
      <WechatLogin />
    </Suspense>
  )
}
