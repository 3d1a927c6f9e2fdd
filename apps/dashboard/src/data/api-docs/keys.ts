export const apiDocsKeys = {
  all: ['api-docs'] as const,
  openApi: (ref: string, role: string) => [...apiDocsKeys.all, 'openapi', ref, role] as const,
}
