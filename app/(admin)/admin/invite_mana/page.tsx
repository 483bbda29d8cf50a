import type { Metadata } from 'next'
import { InviteManager } from '@/components/admin/invites/invite-manager'

export const metadata: Metadata = { title: '邀请管理' }

export default function InviteManaPage() {
  return <InviteManager />
}
