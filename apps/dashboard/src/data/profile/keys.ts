export const profileKeys = {
  all: ['profile'] as const,
  me: () => [...profileKeys.all, 'me'] as const,
  permissions: () => [...profileKeys.all, 'permissions'] as const,
}
