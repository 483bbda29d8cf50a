import type { Metadata } from 'next'
import { Suspense } from 'react'
import { PasswordLoginForm } from '@/components/auth/password-login-form'

export const metadata: Metadata = { title: '账号密码登录' }

export default function LoginByPasswordPage() {
  return (
    <Suspense>
      <PasswordLoginForm />
    </Suspense>
  )
}
