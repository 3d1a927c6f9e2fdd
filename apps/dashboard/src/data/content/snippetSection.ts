import type { ContentListItem } from '@stratum/contracts'

/**
 * A part of the snippet explorer listed page by page: the favorites, the shared snippets, or the
 * private snippets of one folder (folderId null: the private ones outside any folder).
 */
export type SnippetSection = { kind: 'favorites' } | { kind: 'shared' } | { kind: 'folder'; folderId: string | null }

export const FAVORITES: SnippetSection = { kind: 'favorites' }
export const SHARED: SnippetSection = { kind: 'shared' }
export const folderSection = (folderId: string | null): SnippetSection => ({ kind: 'folder', folderId })

/** Whether a snippet is listed in a section (the server's filters, see content/store.ts). */
export function inSection(section: SnippetSection, item: Pick<ContentListItem, 'favorite' | 'visibility' | 'folder_id'>): boolean {
  if (section.kind === 'favorites') return item.favorite
  if (section.kind === 'shared') return item.visibility !== 'user'
  return item.visibility === 'user' && (item.folder_id ?? null) === section.folderId
}

export function isSnippetSection(value: unknown): value is SnippetSection {
  const kind = (value as { kind?: unknown } | null)?.kind
  return kind === 'favorites' || kind === 'shared' || kind === 'folder'
}
