'use client'

import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { MyCard } from '@/lib/cards/card-views'
import type { ZRedeemSchema } from '@/lib/cards/schemas'
import type { Json } from '../hooks'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'
import { useWrite } from './write'

export type MyCardJson = Json<MyCard>

export const myCardUrls = { cards: '/api/my-cards', redeem: '/api/my-cards/redeem' } as const

export const myCardKeys = { all: ['my-cards'] as const }

/** The cards the user holds or has used. */
export function useMyCards() {
  return useQuery({ queryKey: myCardKeys.all, queryFn: () => api.get<MyCardJson[]>(myCardUrls.cards) })
}

/** Redeems a typed key or a held card; the points, the cards and the ledger change. */
export const useRedeemCard = () =>
  useWrite((body: z.input<typeof ZRedeemSchema>) => api.post<{ points: number }>(myCardUrls.redeem, body), [myCardKeys.all, profileKeys.all, ledgerKeys.all])
