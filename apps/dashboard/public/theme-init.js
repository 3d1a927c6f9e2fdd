/* global window, document */
// Runs before the first paint (loaded synchronously from index.html) so the page never
// flashes the wrong theme. Keep in sync with src/lib/theme.ts (same storage key and values).
;(function () {
  let mode = 'system'
  try {
    const saved = window.localStorage.getItem('stratum-theme')
    if (saved === 'light' || saved === 'dark') mode = saved
  } catch {
    // Storage can be unavailable (privacy modes); the system preference still applies.
  }
  const dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches)
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light')
})()
