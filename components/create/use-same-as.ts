'use client'

import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useWallWork, type WallWorkJson } from '@/lib/api-client/resources/wall'
import { toast } from '@/lib/ui/toast-store'

const noSubscription = () => () => {}
const sameParam = () => new URLSearchParams(window.location.search).get('same')

/**
 * 做同款 from the wall opens a creation page with ?same=<wall work id>: the work's prompt
 * and parameters are read once and handed to `apply` (the form fills in). The address is
 * read after hydration, so pages need no Suspense boundary for it.
 */
export function useSameAs(apply: (work: WallWorkJson) => void) {
  const id = useSyncExternalStore(noSubscription, sameParam, () => null)
  const { data } = useWallWork(id)
  const applied = useRef<string | null>(null)
  useEffect(() => {
    if (!data || applied.current === data.id) return
    applied.current = data.id
    apply(data)
    toast.info('已填入作品的提示词和参数')
  }, [data, apply])
}
