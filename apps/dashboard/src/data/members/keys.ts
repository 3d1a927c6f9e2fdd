export const memberKeys = {
  all: ['members'] as const,
  list: (slug: string) => [...memberKeys.all, slug] as const,
  /** Under list(slug): refreshing the members refreshes the open invitations too. */
  invitations: (slug: string) => [...memberKeys.list(slug), 'invitations'] as const,
}
