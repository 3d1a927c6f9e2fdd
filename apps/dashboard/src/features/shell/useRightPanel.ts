import { useCallback, useEffect, useState } from 'react'
import { isModShortcut } from '../../lib/platform'
import type { RightPanelKind } from './SidePanel'

/**
 * Which right panel is open: the assistant or the editor panel, never both.
 * Cmd+I / Cmd+E (Ctrl off macOS) toggle them from anywhere on the page, inputs included;
 * preventDefault keeps the browser from acting (Ctrl+E focuses the address bar in Chrome).
 */
export function useRightPanel() {
  const [panel, setPanel] = useState<RightPanelKind | null>(null)

  const toggle = useCallback((kind: RightPanelKind) => setPanel((open) => (open === kind ? null : kind)), [])
  const close = useCallback(() => setPanel(null), [])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const kind = isModShortcut(event, 'i') ? 'assistant' : isModShortcut(event, 'e') ? 'editor' : null
      if (!kind) return
      event.preventDefault()
      if (!event.repeat) toggle(kind)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggle])

  return { panel, toggle, close }
}
