export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (organizationSlug?: string) => [...projectKeys.lists(), organizationSlug ?? 'all'] as const,
  detail: (ref: string) => [...projectKeys.all, 'detail', ref] as const,
  status: (ref: string) => [...projectKeys.all, 'status', ref] as const,
  availableVersions: (organizationSlug: string) => [...projectKeys.all, 'available-versions', organizationSlug] as const,
}
