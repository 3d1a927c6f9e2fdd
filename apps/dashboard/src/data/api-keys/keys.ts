export const apiKeyKeys = {
  all: ['api-keys'] as const,
  settings: (ref: string) => [...apiKeyKeys.all, 'settings', ref] as const,
  legacy: (ref: string) => [...apiKeyKeys.all, 'legacy', ref] as const,
  updateStatus: (ref: string) => [...apiKeyKeys.all, 'jwt-update-status', ref] as const,
  lastUsed: (ref: string) => [...apiKeyKeys.all, 'last-used', ref] as const,
  named: (ref: string) => [...apiKeyKeys.all, 'named', ref] as const,
}
