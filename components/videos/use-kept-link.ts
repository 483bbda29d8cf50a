'use client'

import { useState } from 'react'

/** A link that failed sooner than this after it was taken is not renewed again (the file, not the link, is at fault). */
const RENEW_AFTER_MS = 5_000

/**
 * The signed link a player plays. Every fetch of a video's detail signs a new link (its expiry
 * moves with the clock), and a new src reloads the element, which stops the video and sends it
 * back to the start: a refetch on window focus, or the one after a purchase, did exactly that.
 * So the player keeps the link it started with for this video, and takes a fresh one only when
 * that one fails (it expired): `renew` with the link of a new fetch.
 */
export function useKeptLink(videoId: string, latest: string | undefined): { src: string | undefined; renew: (fresh: string | undefined) => void } {
  const [kept, setKept] = useState<{ videoId: string; url: string; at: number } | null>(null)
  // Taken while rendering: `at` 0, so the first failure of the first link always renews it.
  if (latest && kept?.videoId !== videoId) setKept({ videoId, url: latest, at: 0 })
  const src = kept?.videoId === videoId ? kept.url : latest
  return {
    src,
    renew: (fresh) => {
      if (fresh && fresh !== src && (!kept || Date.now() - kept.at >= RENEW_AFTER_MS)) setKept({ videoId, url: fresh, at: Date.now() })
    },
  }
}
