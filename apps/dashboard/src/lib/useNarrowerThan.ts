import { useEffect, useState, type RefObject } from 'react'

/**
 * Whether an element is narrower than `width` CSS pixels, followed as it resizes (a side panel opening
 * beside it, the window). A CSS container query could hide things too, but then the controls that show
 * them would not know: this lets a toggle say why it does nothing.
 */
export function useNarrowerThan(element: RefObject<HTMLElement | null>, width: number): boolean {
  const [narrow, setNarrow] = useState(false)
  useEffect(() => {
    const node = element.current
    if (!node) return
    // The observer reports the first size straight away, then every change.
    const observer = new ResizeObserver(([entry]) => setNarrow((entry?.contentRect.width ?? width) < width))
    observer.observe(node)
    return () => observer.disconnect()
  }, [element, width])
  return narrow
}
