import { useCallback, useSyncExternalStore } from 'react'

/** Same key and values as public/theme-init.js, which applies the theme before first paint. */
const STORAGE_KEY = 'stratum-theme'

export type ThemeMode = 'light' | 'dark' | 'system'
export type ResolvedTheme = 'light' | 'dark'

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)')
const listeners = new Set<() => void>()

function readMode(): ThemeMode {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY)
    return saved === 'light' || saved === 'dark' ? saved : 'system'
  } catch {
    return 'system'
  }
}

function resolve(mode: ThemeMode): ResolvedTheme {
  if (mode === 'system') return darkQuery().matches ? 'dark' : 'light'
  return mode
}

function apply() {
  document.documentElement.setAttribute('data-theme', resolve(readMode()))
  listeners.forEach((notify) => notify())
}

/** Follow the operating system while the user has not picked a theme. */
darkQuery().addEventListener('change', apply)
/** Another tab changed the theme: follow it. */
window.addEventListener('storage', (event) => {
  if (event.key === STORAGE_KEY) apply()
})

function subscribe(notify: () => void) {
  listeners.add(notify)
  return () => listeners.delete(notify)
}

export function setThemeMode(mode: ThemeMode) {
  try {
    if (mode === 'system') window.localStorage.removeItem(STORAGE_KEY)
    else window.localStorage.setItem(STORAGE_KEY, mode)
  } catch {
    // Without storage the choice still applies to this page.
  }
  apply()
}

export function useTheme() {
  const mode = useSyncExternalStore(subscribe, readMode)
  const resolved = useSyncExternalStore(subscribe, () => resolve(readMode()))
  const toggle = useCallback(() => setThemeMode(resolve(readMode()) === 'dark' ? 'light' : 'dark'), [])
  return { mode, resolved, setMode: setThemeMode, toggle }
}
