import { useSyncExternalStore } from 'react'

/**
 * Unsaved SQL per snippet, and each snippet's save state (the SQL editor spec's save states): IDLE, UPDATING
 * while a save is in flight, back to IDLE or UPDATING_FAILED. The draft is mirrored in local
 * storage until the server has it, so it survives a reload and a failed save.
 */
export type SaveState = 'IDLE' | 'UPDATING' | 'UPDATING_FAILED'

/** Saves are debounced per snippet by 1 second (the SQL editor spec's limits). */
export const SNIPPET_SAVE_DEBOUNCE_MS = 1000

interface Entry {
  sql?: string
  saveState: SaveState
}

const IDLE: Entry = { saveState: 'IDLE' }
const entries = new Map<string, Entry>()
const timers = new Map<string, number>()
const listeners = new Set<() => void>()

const storageKey = (ref: string, id: string) => `stratum.sql-editor.draft.${ref}.${id}`
const entryKey = (ref: string, id: string) => `${ref}/${id}`

function update(ref: string, id: string, change: Partial<Entry>) {
  const key = entryKey(ref, id)
  entries.set(key, { ...(entries.get(key) ?? IDLE), ...change })
  listeners.forEach((notify) => notify())
}

/**
 * A draft kept in local storage, with the version of the snippet it was typed over (its updated_at). A draft
 * whose snippet changed since on the server (another tab, another member) is stale: it is not put back over the
 * newer SQL, which opening a snippet would otherwise overwrite without anything typed.
 */
interface StoredDraft {
  sql: string
  base?: string
}

export function readStoredDraft(ref: string, id: string): StoredDraft | undefined {
  let text: string | null
  try {
    text = window.localStorage.getItem(storageKey(ref, id))
  } catch {
    return undefined
  }
  if (text === null) return undefined
  try {
    const parsed = JSON.parse(text) as Partial<StoredDraft>
    if (typeof parsed.sql === 'string') return { sql: parsed.sql, ...(typeof parsed.base === 'string' ? { base: parsed.base } : {}) }
  } catch {
    // Written before drafts carried their version: the SQL alone.
  }
  return { sql: text }
}

function writeStoredDraft(ref: string, id: string, sql: string | undefined, base?: string) {
  try {
    if (sql === undefined) window.localStorage.removeItem(storageKey(ref, id))
    else window.localStorage.setItem(storageKey(ref, id), JSON.stringify({ sql, ...(base ? { base } : {}) }))
  } catch {
    // Storage disabled or full: the draft lives in memory only.
  }
}

export function getDraft(ref: string, id: string): Entry {
  return entries.get(entryKey(ref, id)) ?? IDLE
}

export function useDraft(ref: string, id: string): Entry {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify)
      return () => listeners.delete(notify)
    },
    () => getDraft(ref, id),
  )
}

export interface DraftSaver {
  /** Sends the SQL to the server; rejects with the server's error. */
  save: (sql: string) => Promise<void>
  onFailed?: (error: unknown) => void
}

/**
 * Records an edit over the snippet's version `base` (its updated_at as last saved). With a saver, a save follows
 * 1 s after the last edit of this snippet; without one (no permission to save) the SQL stays a local draft.
 */
export function setDraft(ref: string, id: string, sql: string, saver?: DraftSaver, base?: string) {
  update(ref, id, { sql })
  writeStoredDraft(ref, id, sql, base)
  if (!saver) return
  const key = entryKey(ref, id)
  window.clearTimeout(timers.get(key))
  timers.set(
    key,
    window.setTimeout(() => {
      timers.delete(key)
      void flush(ref, id, saver)
    }, SNIPPET_SAVE_DEBOUNCE_MS),
  )
}

/** Each snippet's save in flight (and those queued behind it): its SQL's, its chart's. */
const saving = new Map<string, Promise<unknown>>()

/**
 * One save at a time per snippet: a save due while another is still in flight (a slow server, typing again after a
 * 1 s pause, two chart settings changed at once) waits for it, and reads the snippet when it starts. Two at once
 * raced: a new query's second save created it again (409, "Failed to save"), and two updates could land in either
 * order, the older SQL or chart last (each sends the whole content).
 */
export function queueSnippetSave<T>(ref: string, id: string, task: () => Promise<T>): Promise<T> {
  const key = entryKey(ref, id)
  const next = (saving.get(key) ?? Promise.resolve()).catch(() => undefined).then(task)
  saving.set(key, next)
  const done = () => {
    if (saving.get(key) === next) saving.delete(key)
  }
  next.then(done, done)
  return next
}

function flush(ref: string, id: string, saver: DraftSaver): Promise<void> {
  return queueSnippetSave(ref, id, () => flushOnce(ref, id, saver))
}

async function flushOnce(ref: string, id: string, saver: DraftSaver) {
  // Read when this save starts, not when it was scheduled: a queued save sends the latest SQL.
  const sql = getDraft(ref, id).sql
  if (sql === undefined) return
  update(ref, id, { saveState: 'UPDATING' })
  try {
    await saver.save(sql)
    // Edits made while saving keep their draft (and their own pending save).
    if (getDraft(ref, id).sql === sql) {
      writeStoredDraft(ref, id, undefined)
      update(ref, id, { sql: undefined, saveState: 'IDLE' })
    } else {
      update(ref, id, { saveState: timers.has(entryKey(ref, id)) ? 'UPDATING' : 'IDLE' })
    }
  } catch (error) {
    update(ref, id, { saveState: 'UPDATING_FAILED' })
    saver.onFailed?.(error)
  }
}

/** Saves now (e.g. the Retry of a failed save). */
export function saveDraftNow(ref: string, id: string, saver: DraftSaver) {
  window.clearTimeout(timers.get(entryKey(ref, id)))
  timers.delete(entryKey(ref, id))
  return flush(ref, id, saver)
}

/**
 * Takes up a draft left in local storage (a reload, an earlier failed save) when it was typed over the snippet as
 * it still is (`updatedAt`); a stale one is dropped.
 */
export function restoreDraft(ref: string, id: string, savedSql: string, updatedAt: string): string | undefined {
  const stored = readStoredDraft(ref, id)
  if (stored === undefined) return undefined
  if (stored.sql === savedSql || (stored.base !== undefined && stored.base !== updatedAt)) {
    writeStoredDraft(ref, id, undefined)
    return undefined
  }
  if (getDraft(ref, id).sql === undefined) update(ref, id, { sql: stored.sql })
  return stored.sql
}

export function forgetDraft(ref: string, id: string) {
  window.clearTimeout(timers.get(entryKey(ref, id)))
  timers.delete(entryKey(ref, id))
  writeStoredDraft(ref, id, undefined)
  entries.delete(entryKey(ref, id))
  listeners.forEach((notify) => notify())
}
