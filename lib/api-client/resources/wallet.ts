'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { getWallet } from '@/lib/payments/wallet'
import type { Json } from '../hooks'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'

/** GET /api/account/wallet: what I hold, my memberships, check-in (null when off), and what I can pay with. */
export type Wallet = Json<Awaited<ReturnType<typeof getWallet>>>

export const walletUrls = { wallet: '/api/account/wallet', checkIn: '/api/account/check-in' } as const

export const walletKeys = { all: ['wallet'] as const }

/** My wallet; `enabled: false` leaves it unasked (a closed dialog mounted on every page, a visitor). */
export function useWallet({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: walletKeys.all, queryFn: () => api.get<Wallet>(walletUrls.wallet), enabled })
}

/** 签到: awards today's points once (409 已签到 afterwards). */
export function useCheckIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<{ points: number; total: number }>(walletUrls.checkIn),
    onSuccess: () => Promise.all([walletKeys.all, profileKeys.all, ledgerKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}
