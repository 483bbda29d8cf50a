import type { Metadata } from 'next'
import { AccountView } from '@/components/account/account-view'

export const metadata: Metadata = { title: '我的账户' }

export default function AccountPage() {
  return <AccountView />
}
