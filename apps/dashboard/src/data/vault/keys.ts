export const vaultKeys = {
  all: ['vault'] as const,
  secrets: (ref: string) => [...vaultKeys.all, ref, 'secrets'] as const,
}
