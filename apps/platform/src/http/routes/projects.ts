import {
  AvailableVersionsBody,
  DEFAULT_COMPUTE_SIZE,
  DEFAULT_POSTGRES_MAJOR,
  OrgSlug,
  RefParams,
  SlugParams,
  type ComputeSize,
  type RestoreVersions,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { canConnect } from '../../control/bootstrap-roles.js'
import { installedMajors, shippedVersion } from '../../control/postgres-binaries.js'
import { listProjectsForUser, toProject, type ProjectRow } from '../../control/project-store.js'
import { identityOf, orgAccess, projectAccess } from '../access.js'
import { projectStatusOf } from '../../auth/project-access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { route } from '../typed-route.js'

const ListQuery = z.object({ organization_slug: OrgSlug.optional() })

/** Shared by POST /platform/projects and POST /v1/projects. */
export async function createProjectFor(
  ctx: PlatformContext,
  request: FastifyRequest,
  input: { organizationSlug: string; name: string; dbPass: string; major?: '15' | '17'; computeSize?: string; region?: string },
): Promise<ProjectRow> {
  const { org } = await orgAccess(ctx.db, request, input.organizationSlug, 'projects.create')
  return ctx.projects.create({
    organizationId: org.id,
    name: input.name,
    dbPassword: input.dbPass,
    major: input.major ?? DEFAULT_POSTGRES_MAJOR,
    computeSize: (input.computeSize as ComputeSize | undefined) ?? DEFAULT_COMPUTE_SIZE,
    region: input.region ?? 'local',
  })
}

export async function projectRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const view = (row: ProjectRow) => toProject(row, ctx.config.dbHost)

  route(app, 'GET /platform/projects', async (request) => {
    const query = parse(ListQuery, request.query)
    return (await listProjectsForUser(ctx.db, identityOf(request).user.id, query.organization_slug)).map(view)
  })

  route(app, 'POST /platform/projects', async (request, reply, input) => {
    const body = input.body
    const row = await createProjectFor(ctx, request, {
      organizationSlug: body.organization_slug,
      name: body.name,
      dbPass: body.db_pass,
      major: body.postgres_engine,
      computeSize: body.desired_instance_size,
    })
    reply.code(201)
    return view(row)
  })

  // The New project form's versions: those whose binaries are installed here, newest first. Every
  // provider and region runs on this machine, so they do not narrow the list.
  route(app, 'POST /platform/organizations/{slug}/available-versions', async (request): Promise<RestoreVersions> => {
    const { slug } = parse(SlugParams, request.params)
    parse(AvailableVersionsBody, request.body ?? {})
    await orgAccess(ctx.db, request, slug)
    return {
      available_versions: installedMajors()
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => ({ version: shippedVersion(major), postgres_engine: major, release_channel: 'ga' as const })),
    }
  })

  route(app, 'GET /platform/projects/{ref}', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return view((await projectAccess(ctx.db, request, ref, 'projects.read')).project)
  })

  // Polled every few seconds by every open dashboard: one narrow query, nothing else.
  route(app, 'GET /platform/projects/{ref}/status', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return { status: await projectStatusOf(ctx.db, identityOf(request).user.id, ref) }
  })

  // The connecting screen's second question, asked when the REST API did not answer in 2 s: does the database answer
  // within 2 s? If it does, the REST API is starting (or failing) and the dashboard says that instead.
  route(app, 'GET /platform/projects/{ref}/database/health', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    const healthy = await canConnect(project.port, ctx.projects.credentials(project).adminPassword, 2_000)
    return { healthy }
  })
  // There is no route that reveals the database password: it is reset, never given back.
}
