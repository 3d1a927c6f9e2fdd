import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react'
import { useLocation, useNavigationType } from 'react-router'

/** Frames a restore keeps trying while a page (often lazy) is still too short to scroll that far. */
const RESTORE_FRAMES = 30

/**
 * Scroll of the shell's main panel, which scrolls instead of the window (so the router's own restoration does not
 * see it): a new page starts at the top; Back and Forward return to where that page was left. A change of the search
 * alone (filters, sort, a tab kept in the URL) keeps the place.
 */
export function usePageScroll(container: RefObject<HTMLElement | null>): void {
  const location = useLocation()
  const navigationType = useNavigationType()
  const positions = useRef(new Map<string, number>())
  const shownPath = useRef(location.pathname)

  // Where each history entry's page is scrolled to, kept while it is shown.
  useEffect(() => {
    const element = container.current
    if (!element) return
    const save = () => positions.current.set(location.key, element.scrollTop)
    element.addEventListener('scroll', save, { passive: true })
    return () => element.removeEventListener('scroll', save)
  }, [container, location.key])

  useLayoutEffect(() => {
    const element = container.current
    if (!element || shownPath.current === location.pathname) return
    shownPath.current = location.pathname
    const target = navigationType === 'POP' ? (positions.current.get(location.key) ?? 0) : 0
    element.scrollTop = target
    if (element.scrollTop === target) return
    let frames = 0
    let frame = requestAnimationFrame(function retry() {
      element.scrollTop = target
      if (element.scrollTop !== target && ++frames < RESTORE_FRAMES) frame = requestAnimationFrame(retry)
    })
    return () => cancelAnimationFrame(frame)
  }, [container, location.pathname, location.key, navigationType])
}
