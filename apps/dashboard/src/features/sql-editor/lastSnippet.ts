/**
 * The snippet the user had open last, per project, so that /project/{ref}/sql opens it again instead of
 * making a new one. "New query" forgets it: /sql then shows an unsaved draft.
 */
const key = (ref: string) => `stratum.sql-editor.last.${ref}`

export function readLastSnippet(ref: string): string | undefined {
  try {
    return window.localStorage.getItem(key(ref)) ?? undefined
  } catch {
    return undefined
  }
}

export function rememberLastSnippet(ref: string, id: string): void {
  try {
    window.localStorage.setItem(key(ref), id)
  } catch {
    // Storage disabled: /sql opens a draft.
  }
}

export function forgetLastSnippet(ref: string): void {
  try {
    window.localStorage.removeItem(key(ref))
  } catch {
    // Nothing stored.
  }
}
