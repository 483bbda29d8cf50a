import type { Json } from '@/lib/api-client/hooks'
import type { AdminCardRow } from '@/lib/cards/card-views'
import { Badge } from '@/components/ui/card'

export type CardRow = Json<AdminCardRow>

/** What state a card is in, as an operator reads it. */
export function CardStatusBadge({ card }: { card: CardRow }) {
  if (card.status === 'PENDING') return <Badge tone="amber">校验中</Badge>
  if (card.status === 'FAIL') return <Badge tone="red">无效</Badge>
  if (card.usedAt) return <Badge tone="zinc">已使用</Badge>
  if (card.disabledAt) return <Badge tone="zinc">已停用</Badge>
  if (card.expiresAt && new Date(card.expiresAt) <= new Date()) return <Badge tone="zinc">已过期</Badge>
  if (card.holder) return <Badge tone="brand">已分配</Badge>
  return <Badge tone="green">可用</Badge>
}
