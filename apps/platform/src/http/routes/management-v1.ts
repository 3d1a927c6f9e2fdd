import { RefParams, V1CreateOrganizationBody, V1CreateProjectBody } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { createOrganization, listMemberships } from '../../auth/organizations.js'
import { listProjectsForUser, type ProjectRow } from '../../control/project-store.js'
import { inTransaction } from '../../store/db.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../context.js'
import { parse } from '../errors.js'
import { assertMayCreateOrganization } from '../installation-policy.js'
import { createProjectFor } from './projects.js'

/**
 * The Management API (reference/management-api-v1.openapi.json): same paths, field names and
 * success codes, so existing clients work when pointed at this platform with an access token.
 */
export async function managementV1Routes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const project = (row: ProjectRow) => ({
    id: row.ref, // deprecated in the document: the ref
    ref: row.ref,
    organization_id: row.organization_slug, // deprecated in the document: the slug
    organization_slug: row.organization_slug,
    name: row.name,
    region: row.region,
    created_at: row.inserted_at.toISOString(),
    status: row.status === 'REMOVED' ? 'REMOVED' : row.status,
  })
  const projectWithDatabase = (row: ProjectRow) => ({
    ...project(row),
    database: {
      host: ctx.config.dbHost,
      version: row.postgres_version || row.postgres_major,
      postgres_engine: row.postgres_major,
      release_channel: 'ga',
      port: row.port,
    },
  })

  app.get('/v1/organizations', async (request) => {
    const memberships = await listMemberships(ctx.db, identityOf(request).user.id)
    return memberships.map(({ org }) => ({ id: org.slug, slug: org.slug, name: org.name }))
  })

  app.post('/v1/organizations', async (request, reply) => {
    const { name } = parse(V1CreateOrganizationBody, request.body)
    await assertMayCreateOrganization(ctx, identityOf(request).user.id)
    const { org } = await inTransaction(ctx.db, (tx) => createOrganization(tx, name, identityOf(request).user.id))
    return reply.code(201).send({ id: org.slug, slug: org.slug, name: org.name })
  })

  app.get('/v1/projects', async (request) => {
    return (await listProjectsForUser(ctx.db, identityOf(request).user.id)).map(projectWithDatabase)
  })

  app.post('/v1/projects', async (request, reply) => {
    const body = parse(V1CreateProjectBody, request.body)
    const row = await createProjectFor(ctx, request, {
      organizationSlug: body.organization_slug,
      name: body.name,
      dbPass: body.db_pass,
      major: body.postgres_engine === '15' ? '15' : body.postgres_engine === '17' ? '17' : undefined,
      computeSize: body.desired_instance_size,
      region: body.region ?? (body.region_selection?.type === 'specific' ? body.region_selection.code : undefined),
    })
    return reply.code(201).send(project(row))
  })

  app.get('/v1/projects/:ref', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return projectWithDatabase((await projectAccess(ctx.db, request, ref, 'projects.read')).project)
  })
}
