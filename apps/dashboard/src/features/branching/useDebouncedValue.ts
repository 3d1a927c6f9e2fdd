import { useEffect, useState } from 'react'

/** The value once it has stopped changing for `ms` (the GitHub branch check waits for the typing to pause). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms)
    return () => window.clearTimeout(timer)
  }, [value, ms])
  return settled
}
