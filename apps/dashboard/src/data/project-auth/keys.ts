export const projectAuthKeys = {
  all: ['project-auth'] as const,
  project: (ref: string) => [...projectAuthKeys.all, ref] as const,
  users: (ref: string, keywords: string, page: number) => [...projectAuthKeys.project(ref), 'users', keywords, page] as const,
  allUsers: (ref: string) => [...projectAuthKeys.project(ref), 'users'] as const,
  outbox: (ref: string) => [...projectAuthKeys.project(ref), 'outbox'] as const,
  config: (ref: string) => [...projectAuthKeys.project(ref), 'config'] as const,
}
