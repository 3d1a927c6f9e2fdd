import { useEffect, useState } from 'react'

/** Seconds since `since` (epoch ms), ticking every second. */
export function useElapsedSeconds(since: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  return Math.max(0, Math.floor((now - since) / 1000))
}

/** The moment a component first rendered (epoch ms). */
export function useMountedAt(): number {
  const [at] = useState(() => Date.now())
  return at
}
