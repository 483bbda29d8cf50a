import type { Metadata } from 'next'
import { Suspense } from 'react'
import { BindMobilePage } from '@/components/auth/bind-mobile-form'

export const metadata: Metadata = { title: '绑定手机号' }

export default function BindMobileRoute() {
  return (
    <Suspense>
      <BindMobilePage />
    </Suspense>
  )
}
