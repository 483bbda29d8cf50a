import type { CardRow } from '@/lib/api-client/resources/admin-cards'
import { Badge } from '@/components/ui/card'

export type { CardRow }

/** The check results an operator can filter by, as the status badge names them. */
export const CARD_STATUS_LABELS = { PENDING: '校验中', SUCCESS: '可用', FAIL: '无效' } as const

/** What state a card is in, as an operator reads it. */
export function CardStatusBadge({ card }: { card: CardRow }) {
  if (card.status === 'PENDING') return <Badge tone="amber">{CARD_STATUS_LABELS.PENDING}</Badge>
  if (card.status === 'FAIL') return <Badge tone="red">{CARD_STATUS_LABELS.FAIL}</Badge>
  if (card.usedAt) return <Badge tone="zinc">已使用</Badge>
  if (card.disabledAt) return <Badge tone="zinc">已停用</Badge>
  if (card.expiresAt && new Date(card.expiresAt) <= new Date()) return <Badge tone="zinc">已过期</Badge>
  if (card.holder) return <Badge tone="brand">已分配</Badge>
  if (card.exportedAt) return <Badge tone="brand">已导出</Badge>
  return <Badge tone="green">{CARD_STATUS_LABELS.SUCCESS}</Badge>
}
