export const extensionKeys = {
  all: ['extensions'] as const,
  list: (ref: string) => [...extensionKeys.all, ref, 'list'] as const,
}
