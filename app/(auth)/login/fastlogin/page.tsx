import type { Metadata } from 'next'
import { Suspense } from 'react'
import { SmsLoginForm } from '@/components/auth/sms-login-form'

export const metadata: Metadata = { title: '手机验证码登录' }

export default function FastLoginPage() {
  return (
    <Suspense>
      <SmsLoginForm />
    </Suspense>
  )
}
