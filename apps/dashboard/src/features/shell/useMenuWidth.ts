import { useCallback, useState, type RefObject } from 'react'
import type { LayoutChangedMeta, PanelImperativeHandle } from 'react-resizable-panels'

const STORAGE_KEY = 'stratum-product-menu-width'
const DEFAULT_WIDTH = 240

function readWidth(): number {
  try {
    const saved = Number(window.localStorage.getItem(STORAGE_KEY))
    return Number.isFinite(saved) && saved >= 120 ? saved : DEFAULT_WIDTH
  } catch {
    return DEFAULT_WIDTH
  }
}

/**
 * The product menu's width in pixels, remembered across visits. The panel library keeps one
 * layout per set of panels, so opening the right panel would otherwise reset the menu to its
 * default width; feeding the last width back as the default keeps it where the user left it.
 */
export function useMenuWidth(panel: RefObject<PanelImperativeHandle | null>) {
  const [width, setWidth] = useState(readWidth)

  const onLayoutChanged = useCallback(
    (_layout: unknown, meta: LayoutChangedMeta) => {
      if (!meta.isUserInteraction || !panel.current) return
      const pixels = Math.round(panel.current.getSize().inPixels)
      setWidth(pixels)
      try {
        window.localStorage.setItem(STORAGE_KEY, String(pixels))
      } catch {
        // Not remembered across visits; still applied now.
      }
    },
    [panel],
  )

  return { defaultSize: `${width}px`, onLayoutChanged }
}
