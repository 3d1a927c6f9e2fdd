/**
 * How people reach a project's database: resetting the password of its `postgres` role (it is
 * never shown again after creation) and the installation's CA certificate for TLS.
 */
import { z } from 'zod'
import { DatabasePassword } from './projects.js'

/**
 * PATCH /v1/projects/{ref}/database/password (the Management API's V1UpdatePasswordBody) and its
 * dashboard twin PATCH /platform/projects/{ref}/db-password. The same rules as the New project
 * form; a NUL character cannot reach Postgres at all.
 */
export const UpdateDatabasePasswordBody = z.object({
  password: DatabasePassword.refine((value) => !value.includes('\0'), 'Database password must not contain a NUL character'),
})
export type UpdateDatabasePasswordBody = z.infer<typeof UpdateDatabasePasswordBody>

/** V1UpdatePasswordResponse. */
export const UpdateDatabasePasswordResponse = z.object({ message: z.string() })
export type UpdateDatabasePasswordResponse = z.infer<typeof UpdateDatabasePasswordResponse>

export const DATABASE_PASSWORD_UPDATED = 'Database password updated'

/** GET /platform/projects/{ref}/settings/ssl-ca answers the CA certificate (PEM) as this file. */
export const SSL_CA_FILE_NAME = 'stratum-ca.crt'
export const sslCaPath = (ref: string) => `/platform/projects/${encodeURIComponent(ref)}/settings/ssl-ca`

/** Dashboard texts for the database's connection controls. */
export const DATABASE_ACCESS_TEXTS = {
  resetPasswordDenied: 'You need additional permissions to reset the database password',
} as const
