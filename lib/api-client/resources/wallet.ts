'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { getWallet } from '@/lib/payments/wallet'
import type { Json } from '../hooks'
import { msUntilNextBeijingDay } from '@/lib/beijing-time'
import { api } from '../request'
import { ledgerKeys } from './ledger'
import { profileKeys } from './profile'

/** GET /api/account/wallet: what I hold, my memberships, check-in (null when off), and what I can pay with. */
export type Wallet = Json<Awaited<ReturnType<typeof getWallet>>>

export const walletUrls = { wallet: '/api/account/wallet', checkIn: '/api/account/check-in' } as const

export const walletKeys = { all: ['wallet'] as const }

/** My wallet; `enabled: false` leaves it unasked (a closed dialog mounted on every page, a visitor). */
export function useWallet({ enabled = true }: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: walletKeys.all,
    queryFn: async () => {
      const wallet = await api.get<Wallet>(walletUrls.wallet)
      // A member's first view of the day books the day's points: the header and 收支明细 read
      // again when they show other points, or may have been read before it (still loading).
      const shown = queryClient.getQueryData<{ points: number }>(profileKeys.all)
      if (wallet.membership?.dailyPoints && shown?.points !== wallet.points)
        void Promise.all([profileKeys.all, ledgerKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
      return wallet
    },
    enabled,
    // 今日已签到 and a member's daily points belong to a Beijing day: read again when the next one starts.
    refetchInterval: () => msUntilNextBeijingDay() + 2_000,
  })
}

/** 签到: awards today's points once (409 已签到 afterwards, say from another tab: the wallet is read again either way). */
export function useCheckIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post<{ points: number; total: number }>(walletUrls.checkIn),
    onSettled: () => Promise.all([walletKeys.all, profileKeys.all, ledgerKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}
