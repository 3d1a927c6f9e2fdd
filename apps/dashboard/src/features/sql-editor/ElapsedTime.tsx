import { useEffect, useState } from 'react'

/** Seconds since `since`, ticking while shown. */
export function ElapsedTime({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 100)
    return () => window.clearInterval(timer)
  }, [])
  return <span className="elapsed">{(Math.max(0, now - since) / 1000).toFixed(1)} s</span>
}
