import type { Metadata } from 'next'
import { Suspense } from 'react'
import { LoginChooser } from '@/components/auth/login-chooser'

export const metadata: Metadata = { title: '登录' }

export default function LoginPage() {
  return (
    <Suspense>
      <LoginChooser />
    </Suspense>
  )
}
