/**
 * The panel's SQL, kept per project in local storage so closing the panel or reloading the page
 * does not lose it. Writes are debounced by 300 ms (the API docs and assistant spec's limits) and flushed when the panel unmounts
 * or the page is hidden.
 */
export const SQL_PANEL_DRAFT_DEBOUNCE_MS = 300

export const draftStorageKey = (ref: string) => `stratum.sql-panel.draft.${ref}`

/** The latest text per project, also while its write is pending. */
const pending = new Map<string, string>()
const timers = new Map<string, number>()

export function readPanelDraft(ref: string): string {
  const waiting = pending.get(ref)
  if (waiting !== undefined) return waiting
  try {
    return window.localStorage.getItem(draftStorageKey(ref)) ?? ''
  } catch {
    return ''
  }
}

function write(ref: string) {
  const timer = timers.get(ref)
  if (timer !== undefined) window.clearTimeout(timer)
  timers.delete(ref)
  const sql = pending.get(ref)
  if (sql === undefined) return
  pending.delete(ref)
  try {
    if (sql.trim() === '') window.localStorage.removeItem(draftStorageKey(ref))
    else window.localStorage.setItem(draftStorageKey(ref), sql)
  } catch {
    // Storage disabled or full: the draft lives only as long as the panel.
  }
}

export function setPanelDraft(ref: string, sql: string) {
  pending.set(ref, sql)
  const timer = timers.get(ref)
  if (timer !== undefined) window.clearTimeout(timer)
  timers.set(
    ref,
    window.setTimeout(() => write(ref), SQL_PANEL_DRAFT_DEBOUNCE_MS),
  )
}

export function flushPanelDraft(ref: string) {
  write(ref)
}

/** A reload or a closed tab within the debounce still keeps the last keystrokes. */
window.addEventListener('pagehide', () => {
  for (const ref of [...pending.keys()]) write(ref)
})
