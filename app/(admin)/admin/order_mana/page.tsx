import type { Metadata } from 'next'
import { OrderManager } from '@/components/admin/orders/order-manager'

export const metadata: Metadata = { title: '订单管理' }

export default function OrderManaPage() {
  return <OrderManager />
}
