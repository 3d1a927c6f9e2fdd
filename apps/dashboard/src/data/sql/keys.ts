export const sqlKeys = {
  ongoing: (ref: string) => ['sql', ref, 'ongoing'] as const,
}
