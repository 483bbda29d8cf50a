'use client'

import { QueryClientProvider } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { makeQueryClient } from '@/lib/api-client/query-client'
import { showRequestFailuresWith } from '@/lib/api-client/environment'
import { SITE_INFO_CACHE, siteInfoKeys } from '@/lib/api-client/resources/site-info'
import type { PublicConfig } from '@/lib/site-config/registry'
import { showToast } from '@/lib/ui/toast-store'
import { Toaster } from '@/components/ui/toaster'
import { AppStart } from './app-start'
import { IntegralNotEnoughDialog } from './integral-not-enough'
import { SiteTitleSync } from './site-title-sync'

showRequestFailuresWith((message, ms) => showToast(message, 'error', ms))

export function Providers({ siteInfo, children }: { siteInfo: PublicConfig; children: ReactNode }) {
  const [client] = useState(() => {
    const qc = makeQueryClient()
    // Kept for the page's life (the default cache time is 0): every layout reads it from
    // the first render on, and hydration must see what the server rendered.
    qc.setQueryDefaults(siteInfoKeys.all, SITE_INFO_CACHE)
    qc.setQueryData(siteInfoKeys.all, siteInfo)
    return qc
  })
  return (
    <QueryClientProvider client={client}>
      <AppStart />
      <SiteTitleSync />
      {children}
      <IntegralNotEnoughDialog />
      <Toaster />
    </QueryClientProvider>
  )
}
