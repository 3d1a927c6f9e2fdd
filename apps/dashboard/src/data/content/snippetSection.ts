import type { ContentListItem } from '@stratum/contracts'

/**
 * A part of the snippet explorer listed page by page: the favorites, the shared snippets, the
 * private snippets of one folder (folderId null: the private ones outside any folder), or the
 * snippets whose name or SQL contains a search text.
 */
export type SnippetSection = { kind: 'favorites' } | { kind: 'shared' } | { kind: 'folder'; folderId: string | null } | { kind: 'search'; text: string }

export const FAVORITES: SnippetSection = { kind: 'favorites' }
export const SHARED: SnippetSection = { kind: 'shared' }
export const folderSection = (folderId: string | null): SnippetSection => ({ kind: 'folder', folderId })
export const searchSection = (text: string): SnippetSection => ({ kind: 'search', text })

/** Whether a snippet is listed in a section (the server's filters, see content/store.ts). */
export function inSection(section: SnippetSection, item: Pick<ContentListItem, 'favorite' | 'visibility' | 'folder_id' | 'name'> & { content?: { sql?: string } }): boolean {
  if (section.kind === 'favorites') return item.favorite
  if (section.kind === 'search') {
    // As the server matches (name or SQL, case-insensitive); a listing without the SQL keeps what the server said.
    const text = section.text.toLowerCase()
    return item.name.toLowerCase().includes(text) || item.content?.sql === undefined || item.content.sql.toLowerCase().includes(text)
  }
  if (section.kind === 'shared') return item.visibility !== 'user'
  return item.visibility === 'user' && (item.folder_id ?? null) === section.folderId
}

export function isSnippetSection(value: unknown): value is SnippetSection {
  const kind = (value as { kind?: unknown } | null)?.kind
  return kind === 'favorites' || kind === 'shared' || kind === 'folder' || kind === 'search'
}
