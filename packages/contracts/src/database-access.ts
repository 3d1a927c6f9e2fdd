/**
 * How people reach a project's database: resetting the password of its `postgres` role (it is
 * never shown again after creation) and the installation's CA certificate for TLS.
 */
import { z } from 'zod'
import { DatabasePassword } from './projects.js'

export * from './values/database-access.js'

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
