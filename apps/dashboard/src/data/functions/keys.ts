export const functionKeys = {
  all: ['functions'] as const,
  project: (ref: string) => [...functionKeys.all, ref] as const,
  list: (ref: string) => [...functionKeys.project(ref), 'list'] as const,
  detail: (ref: string, slug: string) => [...functionKeys.project(ref), 'detail', slug] as const,
  files: (ref: string, slug: string) => [...functionKeys.project(ref), 'files', slug] as const,
  secrets: (ref: string) => [...functionKeys.project(ref), 'secrets'] as const,
}
