'use client'

import { useQuery } from '@tanstack/react-query'
import type { PublicConfig } from '@/lib/site-config/registry'
import { api } from '../request'

export const siteInfoUrls = { info: '/api/site-config/site-info' } as const

export const siteInfoKeys = { all: ['site-info'] as const }

/** Kept for the page's life: every layout reads it from the first render on. */
export const SITE_INFO_CACHE = { staleTime: 30_000, gcTime: Infinity }

/** The public site settings (name, logo, switches), rendered by the server into the first page. */
export function useSiteInfo(initial?: PublicConfig) {
  return useQuery({
    queryKey: siteInfoKeys.all,
    queryFn: async () => (await api.get<{ config: PublicConfig }>(siteInfoUrls.info)).config,
    initialData: initial,
    ...SITE_INFO_CACHE,
  })
}
