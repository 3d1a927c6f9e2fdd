export const postgrestConfigKeys = {
  all: ['postgrest-config'] as const,
  detail: (ref: string) => [...postgrestConfigKeys.all, ref] as const,
}
