/**
 * Postgres extensions: the default schema, the page's texts and the API path the dashboard calls.
 * Plain values only, no zod: the dashboard imports these without the schemas (see values/README.md).
 */
export const DEFAULT_EXTENSION_SCHEMA = 'extensions'

/** Dashboard texts of the Database > Extensions page. */
export const EXTENSION_TEXTS = {
  writePermission: 'You need additional permissions to enable or disable extensions',
} as const

export const extensionsPath = (ref: string) => `/platform/pg-meta/${encodeURIComponent(ref)}/extensions`
