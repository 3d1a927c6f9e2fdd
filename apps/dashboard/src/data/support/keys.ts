export const supportKeys = {
  all: ['support'] as const,
  requests: () => [...supportKeys.all, 'requests'] as const,
}
