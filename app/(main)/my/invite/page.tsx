import type { Metadata } from 'next'
import { MyInviteView } from '@/components/invites/my-invite-view'

export const metadata: Metadata = { title: '邀请好友' }

export default function MyInvitePage() {
  return <MyInviteView />
}
