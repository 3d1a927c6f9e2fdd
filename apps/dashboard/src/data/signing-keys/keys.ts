export const signingKeyKeys = {
  all: ['signing-keys'] as const,
  list: (ref: string) => [...signingKeyKeys.all, 'list', ref] as const,
}
