'use client'

import { useQuery } from '@tanstack/react-query'
import { api } from '../request'
import type { Product, ProductType } from './products'
import { productKeys } from './products'
import { useWrite } from './write'

/** A product as the console edits it (disabled ones included). */
export type AdminProduct = Product & { enabled: boolean }

export type ProductInput = {
  type: ProductType
  name: string
  description: string
  price: number
  points?: number | null
  balance?: number | null
  days?: number | null
  dailyPoints?: number | null
  discountPercent?: number | null
  dailyMessages?: number | null
  enabled: boolean
  sort: number
}

export const adminProductUrls = { list: '/api/admin/products', product: (id: number) => `/api/admin/products/${id}` } as const

export const adminProductKeys = { all: ['admin-products'] as const }

/** Every product, by sort. */
export function useAdminProducts() {
  return useQuery({ queryKey: adminProductKeys.all, queryFn: () => api.get<{ list: AdminProduct[] }>(adminProductUrls.list), select: (d) => d.list })
}

const useProductsWrite = <Input, Output>(send: (input: Input) => Promise<Output>) => useWrite(send, [adminProductKeys.all, productKeys.all])

export const useCreateProduct = () => useProductsWrite((body: ProductInput) => api.post<{ id: number }>(adminProductUrls.list, body))

export const useUpdateProduct = () =>
  useProductsWrite(({ id, ...body }: Partial<ProductInput> & { id: number }) => api.patch(adminProductUrls.product(id), body))

export const useDeleteProduct = () => useProductsWrite((id: number) => api.delete(adminProductUrls.product(id)))
