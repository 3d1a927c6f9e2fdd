import { useEffect, useRef } from 'react'

/** A panel opened by a button above it (a role's grants, a publication's tables) scrolls into view when it opens. */
export function useRevealOnOpen<T extends HTMLElement>(key: string) {
  const anchor = useRef<T>(null)
  useEffect(() => {
    anchor.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' })
  }, [key])
  return anchor
}
