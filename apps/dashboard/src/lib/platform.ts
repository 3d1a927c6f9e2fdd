/** macOS uses Cmd for shortcuts, every other system Ctrl. */
export const isMac: boolean = (() => {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  const platform = nav.userAgentData?.platform || navigator.platform || navigator.userAgent
  return /mac|iphone|ipad|ipod/i.test(platform)
})()

export const modKeyLabel = isMac ? '⌘' : 'Ctrl'

/** The modifier of a shortcut (Cmd on macOS, Ctrl elsewhere) held alone, without Alt or Shift. */
export function isModShortcut(event: KeyboardEvent, key: string): boolean {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
  return mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === key
}
