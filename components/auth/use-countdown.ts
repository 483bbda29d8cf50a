'use client'

import { useCallback, useEffect, useState } from 'react'

/** Seconds left until `start(seconds)` runs out, ticking once a second; 0 when idle. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState(0)
  const [left, setLeft] = useState(0)

  useEffect(() => {
    if (!endsAt) return
    const tick = () => {
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000))
      setLeft(remaining)
      if (remaining === 0) setEndsAt(0)
    }
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [endsAt])

  const start = useCallback((seconds: number) => setEndsAt(Date.now() + seconds * 1000), [])
  return [left, start]
}
