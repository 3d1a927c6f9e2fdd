export const contentKeys = {
  all: (ref: string) => ['content', ref] as const,
  snippets: (ref: string) => [...contentKeys.all(ref), 'snippets'] as const,
  snippet: (ref: string, id: string) => [...contentKeys.all(ref), 'snippet', id] as const,
  folders: (ref: string) => [...contentKeys.all(ref), 'folders'] as const,
}
