import type { SnippetSection } from './snippetSection'

export const contentKeys = {
  all: (ref: string) => ['content', ref] as const,
  /** The first page of every SQL snippet (useSnippets: report pickers). */
  snippets: (ref: string) => [...contentKeys.all(ref), 'snippets'] as const,
  snippet: (ref: string, id: string) => [...contentKeys.all(ref), 'snippet', id] as const,
  folders: (ref: string) => [...contentKeys.all(ref), 'folders'] as const,
  /** The explorer's paged lists, one per section (infinite queries). */
  lists: (ref: string) => [...contentKeys.all(ref), 'lists'] as const,
  list: (ref: string, section: SnippetSection) => [...contentKeys.lists(ref), section] as const,
  /** How many favorite, private and shared SQL snippets the user sees. */
  count: (ref: string) => [...contentKeys.all(ref), 'count'] as const,
}
