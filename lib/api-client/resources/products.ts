'use client'

import { useQuery } from '@tanstack/react-query'
import { api } from '../request'

/** What the operator sells (docs/PRODUCT.md §3): charge and order types. */
export type ProductType = 'BALANCE' | 'POINTS' | 'MEMBERSHIP' | 'CHAT_MEMBERSHIP'
export const PRODUCT_TYPES: readonly ProductType[] = ['BALANCE', 'POINTS', 'MEMBERSHIP', 'CHAT_MEMBERSHIP']

/** One enabled product as GET /api/products lists it (lib/products/products.ts leaves nulls out); price, balance in cents. */
export type Product = {
  id: number
  type: ProductType
  name: string
  description: string
  price: number
  points?: number | null
  balance?: number | null
  days?: number | null
  sort: number
  dailyPoints?: number | null
  discountPercent?: number | null
  dailyMessages?: number | null
}

export const productUrls = { list: '/api/products' } as const

export const productKeys = { all: ['products'] as const }

/** The enabled products, by sort. */
export function useProducts() {
  return useQuery({ queryKey: productKeys.all, queryFn: () => api.get<{ list: Product[] }>(productUrls.list), select: (data) => data.list })
}
