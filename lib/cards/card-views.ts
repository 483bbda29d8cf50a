import type { Status } from '@/lib/generated/prisma/enums'

/** A row of the admin card list: never the full key. */
export type AdminCardRow = {
  id: number
  cardNo: string
  cardKey: string
  points: number
  status: Status
  failReason: string | null
  claimant: { id: string; name: string } | null
  holder: { id: string; name: string } | null
  usedAt: Date | null
  disabledAt: Date | null
  expiresAt: Date | null
  /** When its full key was first exported (then it is never assigned). */
  exportedAt: Date | null
  createdAt: Date
  batch: { id: number; note: string | null }
}

export const ADMIN_CARD_SELECT = {
  id: true,
  cardNo: true,
  keyMask: true,
  points: true,
  status: true,
  failReason: true,
  usedAt: true,
  disabledAt: true,
  expiresAt: true,
  exportedAt: true,
  createdAt: true,
  usedBy: { select: { id: true, name: true } },
  holder: { select: { id: true, name: true } },
  batch: { select: { id: true, note: true } },
} as const

type AdminCardRecord = Omit<AdminCardRow, 'cardKey' | 'claimant'> & { keyMask: string; usedBy: { id: string; name: string } | null }

export function toAdminCardRow({ keyMask, usedBy, ...rest }: AdminCardRecord): AdminCardRow {
  return { ...rest, cardKey: keyMask, claimant: usedBy }
}

/** A card on the user's /my_cards (docs/PRODUCT.md §2.5): masked key, times, usage. */
export type MyCard = {
  id: number
  cardNo: string
  cardKey: string
  points: number
  createdAt: Date
  usedAt: Date | null
  expiresAt: Date | null
  isDisabled: boolean
}

export function toMyCard({
  keyMask,
  disabledAt,
  ...rest
}: {
  id: number
  cardNo: string
  keyMask: string
  points: number
  createdAt: Date
  usedAt: Date | null
  expiresAt: Date | null
  disabledAt: Date | null
}): MyCard {
  return { ...rest, cardKey: keyMask, isDisabled: Boolean(disabledAt) }
}
