export const memberKeys = {
  all: ['members'] as const,
  list: (slug: string) => [...memberKeys.all, slug] as const,
}
