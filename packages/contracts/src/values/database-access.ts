/** Plain values of database access (no zod): the project home shows them (see the contracts README). */

export const DATABASE_PASSWORD_UPDATED = 'Database password updated'

/** GET /platform/projects/{ref}/settings/ssl-ca answers the CA certificate (PEM) as this file. */
export const SSL_CA_FILE_NAME = 'stratum-ca.crt'
export const sslCaPath = (ref: string) => `/platform/projects/${encodeURIComponent(ref)}/settings/ssl-ca`

/** Dashboard texts for the database's connection controls. */
export const DATABASE_ACCESS_TEXTS = {
  resetPasswordDenied: 'You need additional permissions to reset the database password',
} as const
