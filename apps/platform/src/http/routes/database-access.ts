import {
  DATABASE_PASSWORD_UPDATED,
  RefParams,
  SSL_CA_FILE_NAME,
  UpdateDatabasePasswordBody,
  type ProjectStatus,
  type UpdateDatabasePasswordResponse,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { setUserPassword } from '../../control/database-password.js'
import { certificateAuthorityPem, tlsDirOf } from '../../control/tls.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { conflict, failed, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** The instance must be up to take a new password. */
const RUNNING: ProjectStatus[] = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY']

/**
 * How people reach a project's database: the password of its `postgres` role, chosen at
 * creation and never shown again, is reset here by owners and administrators; the
 * installation's CA certificate lets clients verify the instance (sslmode=verify-full).
 */
export async function databaseAccessRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const resetPassword = async (request: FastifyRequest): Promise<UpdateDatabasePasswordResponse> => {
    const { ref } = parse(RefParams, request.params)
    // Permission before validation: a caller who may not reset learns nothing about the rules.
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    const { password } = parse(UpdateDatabasePasswordBody, request.body)
    if (!RUNNING.includes(project.status)) {
      throw conflict(
        project.status === 'INACTIVE'
          ? 'The project is paused: restore it first to reset its database password'
          : `Cannot reset the database password while the project is ${project.status}`,
      )
    }
    try {
      await setUserPassword(ctx.projects.adminConnection(project), password)
    } catch (error) {
      // Only the message: neither the statement nor the request body goes to the log.
      request.log.error({ ref, reason: (error as Error).message }, 'database password reset failed')
      throw failed('Failed to update database password')
    }
    request.log.info({ ref }, 'database password reset')
    return { message: DATABASE_PASSWORD_UPDATED }
  }

  // The Management API's path, and the dashboard's.
  route(app, 'PATCH /v1/projects/{ref}/database/password', resetPassword)
  route(app, 'PATCH /platform/projects/{ref}/db-password', resetPassword)

  // One CA per installation: every member of a project may download it (it is public material).
  app.get('/platform/projects/:ref/settings/ssl-ca', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const pem = certificateAuthorityPem(tlsDirOf(ctx.config.dataDir))
    return reply
      .header('content-type', 'application/x-pem-file')
      .header('content-disposition', `attachment; filename="${SSL_CA_FILE_NAME}"`)
      .send(pem)
  })
}
