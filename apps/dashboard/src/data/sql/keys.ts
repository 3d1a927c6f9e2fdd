export const sqlKeys = {
  ongoing: (ref: string) => ['sql', ref, 'ongoing'] as const,
  history: (ref: string) => ['sql', ref, 'history'] as const,
  historySearch: (ref: string, search: string) => ['sql', ref, 'history', search] as const,
}
