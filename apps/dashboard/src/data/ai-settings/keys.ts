export const aiSettingsKeys = {
  all: ['ai-settings'] as const,
  detail: () => [...aiSettingsKeys.all, 'detail'] as const,
}
