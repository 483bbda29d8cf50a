'use client'

import { useCallback, useState } from 'react'

type Work = () => Promise<unknown>
type OnError = (error: unknown) => void

/**
 * Runs a request-backed action and says whether it succeeded. A failure is not rethrown:
 * the request layer has already shown its error toast (`onError` is for silent requests).
 */
export async function attempt(work: Work, onError?: OnError): Promise<boolean> {
  try {
    await work()
    return true
  } catch (error) {
    onError?.(error)
    return false
  }
}

/** `[busy, run]`: `run(work)` is `attempt(work)` with `busy` set while the work runs. */
export function useAction(): [boolean, (work: Work, onError?: OnError) => Promise<boolean>] {
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (work: Work, onError?: OnError) => {
    setBusy(true)
    try {
      return await attempt(work, onError)
    } finally {
      setBusy(false)
    }
  }, [])
  return [busy, run]
}
