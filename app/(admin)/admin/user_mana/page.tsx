import type { Metadata } from 'next'
import { UserManager } from '@/components/admin/users/user-manager'

export const metadata: Metadata = { title: '用户管理' }

export default function UserManaPage() {
  return <UserManager />
}
