export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
  detail: (slug: string) => [...organizationKeys.all, 'detail', slug] as const,
  installationSettings: () => [...organizationKeys.all, 'installation-settings'] as const,
}
