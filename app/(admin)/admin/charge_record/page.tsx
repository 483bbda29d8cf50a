import type { Metadata } from 'next'
import { ChargeRecordManager } from '@/components/admin/charge-records/charge-record-manager'

export const metadata: Metadata = { title: '充值记录' }

export default function ChargeRecordPage() {
  return <ChargeRecordManager />
}
