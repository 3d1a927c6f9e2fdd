export const advisorKeys = {
  all: ['advisors'] as const,
  lints: (ref: string) => [...advisorKeys.all, ref, 'lints'] as const,
}
