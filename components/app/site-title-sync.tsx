'use client'

import { useEffect, useRef } from 'react'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'

/**
 * Keeps the tab title and icon in step with the site config when it changes while the
 * page is open (an admin renaming the site): the server renders them on each page
 * load, but a live change would otherwise show only after a reload.
 */
export function SiteTitleSync() {
  const { data: config } = useSiteInfo()
  const shown = useRef<{ name: string; logo: string } | null>(null)

  useEffect(() => {
    if (!config) return
    const previous = shown.current
    shown.current = { name: config.name, logo: config.logo }
    if (!previous) return
    if (previous.name !== config.name) {
      document.title = document.title.includes(previous.name) ? document.title.replace(previous.name, config.name) : config.name
    }
    if (previous.logo !== config.logo) {
      document.querySelectorAll<HTMLLinkElement>('link[rel="icon"]').forEach((link) => (link.href = config.logo))
    }
  }, [config])

  return null
}
