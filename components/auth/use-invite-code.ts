'use client'

import { useSearchParams } from 'next/navigation'
import { useEffect, useState } from 'react'

const KEY = 'aiimg.invite'

const clean = (value: string | null | undefined) => (value ?? '').trim().slice(0, 32) || undefined

/**
 * The invite code of the link this visit started on (/login?invite=CODE, docs/PRODUCT.md §17):
 * kept in this browser so it survives the way to the password, SMS or WeChat sign-in page,
 * and sent with the request that may create the account.
 */
export function useInviteCode(): string | undefined {
  const fromUrl = clean(useSearchParams().get('invite'))
  const [stored, setStored] = useState<string | undefined>(undefined)
  useEffect(() => {
    try {
      if (fromUrl) localStorage.setItem(KEY, fromUrl)
      // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only after hydration; reading it during render would not match the server's HTML
      setStored(clean(localStorage.getItem(KEY)))
    } catch {
      // Storage refused (private mode): the code in the address still works on this page.
    }
  }, [fromUrl])
  return fromUrl ?? stored
}

/** After a sign-in the code has done its work (or the account existed already). */
export function forgetInviteCode(): void {
  try {
    localStorage.removeItem(KEY)
  } catch {
    // Nothing kept.
  }
}
