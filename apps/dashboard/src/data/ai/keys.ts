export const aiKeys = {
  all: ['ai'] as const,
  keyCheck: () => [...aiKeys.all, 'check-api-key'] as const,
}
