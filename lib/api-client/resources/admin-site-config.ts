'use client'

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ConfigItem } from '@/lib/site-config/list-config'
import type { Json } from '../hooks'
import { api } from '../request'
import { siteInfoKeys } from './site-info'

export type ConfigItemView = Json<ConfigItem>
export type SiteConfigView = { groups: string[]; items: ConfigItemView[] }

export const adminSiteConfigUrls = {
  list: '/api/site-config',
  item: (name: string) => `/api/site-config/${encodeURIComponent(name)}`,
} as const

export const adminSiteConfigKeys = { all: ['admin-site-config'] as const }

/** Every setting the console may see (secrets masked), grouped. */
export function useSiteConfig(enabled = true) {
  return useQuery({ queryKey: adminSiteConfigKeys.all, queryFn: () => api.get<SiteConfigView>(adminSiteConfigUrls.list), enabled })
}

/** Saves one setting. The caller refreshes once after a group is saved (`useRefreshSiteConfig`). */
export function useUpdateSetting() {
  return useMutation({ mutationFn: ({ name, value }: { name: string; value: unknown }) => api.patch(adminSiteConfigUrls.item(name), { value }) })
}

/** The console's settings and the public site info (name, logo, switches) after a save. */
export function useRefreshSiteConfig() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: adminSiteConfigKeys.all }), queryClient.invalidateQueries({ queryKey: siteInfoKeys.all })])
}
