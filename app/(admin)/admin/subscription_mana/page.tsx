import type { Metadata } from 'next'
import { SubscriptionManager } from '@/components/admin/subscriptions/subscription-manager'

export const metadata: Metadata = { title: '套餐管理' }

export default function SubscriptionManaPage() {
  return <SubscriptionManager />
}
