import type { OrderStatus } from '@/lib/api-client/resources/orders'
import { Badge } from '@/components/ui/card'
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES } from './labels'

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge tone={ORDER_STATUS_TONES[status]}>{ORDER_STATUS_LABELS[status]}</Badge>
}
