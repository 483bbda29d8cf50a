import type { Metadata } from 'next'
import { CommissionRecordsView } from '@/components/invites/commission-records-view'

export const metadata: Metadata = { title: '佣金记录' }

export default function InviteChargeRecordPage() {
  return <CommissionRecordsView />
}
