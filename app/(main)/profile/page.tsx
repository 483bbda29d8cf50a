import type { Metadata } from 'next'
import { ProfileView } from '@/components/profile/profile-view'

export const metadata: Metadata = { title: '个人资料' }

export default function ProfilePage() {
  return <ProfileView />
}
