import type { Metadata } from 'next'
import { UserChargeRecords } from '@/components/admin/charge-records/user-charge-records'

export const metadata: Metadata = { title: '用户充值记录' }

export default function UserChargeRecordManaPage() {
  return <UserChargeRecords />
}
