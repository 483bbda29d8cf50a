'use client'

import Link from 'next/link'
import { useSiteInfo } from '@/lib/api-client/resources/site-info'

/** The site's logo and name from the site config. */
export function SiteBrand({ href = '/', suffix }: { href?: string; suffix?: string }) {
  const { data: config } = useSiteInfo()
  return (
    <Link href={href} className="flex min-w-0 items-center gap-2.5">
      {config?.logo && <img src={config.logo} alt="" className="size-8 shrink-0 rounded-lg object-cover" />}
      <span className="truncate text-base font-semibold text-white">{config?.name}</span>
      {suffix && <span className="shrink-0 rounded bg-zinc-800 px-1.5 py-0.5 text-xs text-zinc-400">{suffix}</span>}
    </Link>
  )
}
