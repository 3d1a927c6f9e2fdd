import { useEffect, useState, type RefObject } from 'react'
import type { Monaco } from '../monaco'

type Editor = ReturnType<Monaco['editor']['create']>

export interface PromptPlacement {
  top: number
  left: number
  width: number
}

/** Space between the box and the lines around it. */
const GAP = 8
const MAX_WIDTH = 640

/**
 * Makes room for the prompt box above `line` (a Monaco view zone as tall as the box, so no text is
 * hidden under it) and says where the box goes: over that zone, aligned with the text, following
 * scrolling and layout changes.
 */
export function usePromptZone(editor: Editor, line: number, box: RefObject<HTMLElement | null>): PromptPlacement | null {
  const [placement, setPlacement] = useState<PromptPlacement | null>(null)

  useEffect(() => {
    const zone = { afterLineNumber: line - 1, heightInPx: (box.current?.offsetHeight ?? 44) + GAP * 2, domNode: document.createElement('div') }
    let zoneId = ''
    editor.changeViewZones((accessor) => {
      zoneId = accessor.addZone(zone)
    })
    const place = () => {
      const layout = editor.getLayoutInfo()
      setPlacement({
        top: editor.getTopForLineNumber(line, true) - editor.getScrollTop() + GAP,
        left: layout.contentLeft,
        width: Math.max(0, Math.min(MAX_WIDTH, layout.contentWidth - GAP * 3)),
      })
    }
    // The observer reports the box's first size straight away, then every change (an error line).
    const observer = new ResizeObserver(() => {
      const height = (box.current?.offsetHeight ?? 0) + GAP * 2
      if (height > GAP * 2 && height !== zone.heightInPx) {
        zone.heightInPx = height
        editor.changeViewZones((accessor) => accessor.layoutZone(zoneId))
      }
      place()
    })
    if (box.current) observer.observe(box.current)
    const listeners = [editor.onDidScrollChange(place), editor.onDidLayoutChange(place)]
    return () => {
      observer.disconnect()
      listeners.forEach((listener) => listener.dispose())
      editor.changeViewZones((accessor) => accessor.removeZone(zoneId))
    }
  }, [editor, line, box])

  return placement
}
