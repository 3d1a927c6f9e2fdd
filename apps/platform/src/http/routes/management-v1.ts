import { type AiOptInLevel, RefParams, ROLE_LABELS, SlugParams } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import type { OrganizationProjectsResponse, V1OrganizationSlugResponse, V1ProjectResponse, V1ProjectWithDatabaseResponse } from 'supabase-management-js'
import { createOrganization, listMemberships } from '../../auth/organizations.js'
import { listProjectsForUser, type ProjectRow } from '../../control/project-store.js'
import { inTransaction } from '../../store/db.js'
import { identityOf, orgAccess, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { parse } from '../../errors.js'
import { assertMayCreateOrganization } from '../installation-policy.js'
import { createProjectFor } from './projects.js'
import { route } from '../typed-route.js'

/**
 * The Management API (docs/reference/management-api-v1.openapi.json): same paths, field names and
 * success codes, so existing clients work when pointed at this platform with an access token.
 */
export async function managementV1Routes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const project = (row: ProjectRow): V1ProjectResponse => ({
    id: row.ref, // deprecated in the document: the ref
    ref: row.ref,
    organization_id: row.organization_slug, // deprecated in the document: the slug
    organization_slug: row.organization_slug,
    name: row.name,
    region: row.region,
    created_at: row.inserted_at.toISOString(),
    status: row.status === 'REMOVED' ? 'REMOVED' : row.status,
  })
  // The database's port is Stratum's addition: every project listens on its own.
  const projectWithDatabase = (row: ProjectRow): V1ProjectWithDatabaseResponse & { database: { port: number } } => ({
    ...project(row),
    database: {
      host: ctx.config.dbHost,
      version: row.postgres_version || row.postgres_major,
      postgres_engine: row.postgres_major,
      release_channel: 'ga',
      port: row.port,
    },
  })

  route(app, 'GET /v1/organizations', async (request) => {
    const memberships = await listMemberships(ctx.db, identityOf(request).user.id)
    return memberships.map(({ org }) => ({ id: org.slug, slug: org.slug, name: org.name }))
  })

  route(app, 'POST /v1/organizations', async (request, reply, input) => {
    const { name } = input.body
    await assertMayCreateOrganization(ctx, identityOf(request).user.id)
    const { org } = await inTransaction(ctx.db, (tx) => createOrganization(tx, name, identityOf(request).user.id))
    reply.code(201)
    return { id: org.slug, slug: org.slug, name: org.name }
  })

  // One organization as the document gives it: its plan, no AI opt-in tags (the assistant is configured
  // for the whole installation), the 'ga' release channel (the only one this platform ships).
  route(app, 'GET /v1/organizations/{slug}', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    const { org } = await orgAccess(ctx.db, request, slug)
    return { id: org.slug, name: org.name, plan: org.plan, opt_in_tags: optInTags(org.ai_opt_in_level), allowed_release_channels: ['ga' as const] }
  })

  route(app, 'GET /v1/organizations/{slug}/members', async (request) => {
    const { slug } = parse(SlugParams, request.params)
    const { org } = await orgAccess(ctx.db, request, slug)
    const { rows } = await ctx.db.query<{ user_id: string; email: string; username: string | null; role: keyof typeof ROLE_LABELS }>(
      `SELECT m.user_id, u.email, u.username, m.role FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY m.joined_at, u.email`,
      [org.id],
    )
    return rows.map((row) => ({ user_id: row.user_id, user_name: row.username ?? row.email, email: row.email, role_name: ROLE_LABELS[row.role], mfa_enabled: false }))
  })

  route(app, 'GET /v1/organizations/{slug}/projects', async (request, _reply, input) => {
    const { slug } = parse(SlugParams, request.params)
    const query = input.query
    await orgAccess(ctx.db, request, slug)
    const search = query.search?.toLowerCase()
    const statuses = query.statuses?.split(',').map((status) => status.trim()).filter(Boolean)
    const rows = (await listProjectsForUser(ctx.db, identityOf(request).user.id, slug))
      .filter((row) => !search || row.name.toLowerCase().includes(search) || row.ref.includes(search))
      .filter((row) => !statuses?.length || statuses.includes(row.status))
      .sort(PROJECT_ORDER[query.sort])
    return {
      projects: rows.slice(query.offset, query.offset + query.limit).map(organizationProject),
      pagination: { count: rows.length, limit: query.limit, offset: query.offset },
    }
  })

  route(app, 'GET /v1/projects', async (request) => {
    return (await listProjectsForUser(ctx.db, identityOf(request).user.id)).map(projectWithDatabase)
  })

  route(app, 'POST /v1/projects', async (request, reply, input) => {
    const body = input.body
    const row = await createProjectFor(ctx, request, {
      organizationSlug: body.organization_slug,
      name: body.name,
      dbPass: body.db_pass,
      major: body.postgres_engine === '15' ? '15' : body.postgres_engine === '17' ? '17' : undefined,
      computeSize: body.desired_instance_size,
      region: body.region ?? (body.region_selection?.type === 'specific' ? body.region_selection.code : undefined),
    })
    reply.code(201)
    return project(row)
  })

  route(app, 'GET /v1/projects/{ref}', async (request) => {
    const { ref } = parse(RefParams, request.params)
    return projectWithDatabase((await projectAccess(ctx.db, request, ref, 'projects.read')).project)
  })

  // Renames the project (the project settings permission: Owner, Administrator).
  route(app, 'PATCH /v1/projects/{ref}', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    const { name } = input.body
    await ctx.db.query('UPDATE projects SET name = $2 WHERE ref = $1', [project.ref, name])
    return { id: Number(project.id), ref: project.ref, name }
  })
}

const PROJECT_ORDER: Record<'name_asc' | 'name_desc' | 'created_asc' | 'created_desc', (a: ProjectRow, b: ProjectRow) => number> = {
  name_asc: (a, b) => a.name.localeCompare(b.name) || a.ref.localeCompare(b.ref),
  name_desc: (a, b) => b.name.localeCompare(a.name) || b.ref.localeCompare(a.ref),
  created_asc: (a, b) => a.inserted_at.getTime() - b.inserted_at.getTime(),
  created_desc: (a, b) => b.inserted_at.getTime() - a.inserted_at.getTime(),
}

type OrganizationProject = OrganizationProjectsResponse['projects'][number]
type DatabaseStatus = OrganizationProject['databases'][number]['status']
/** The database statuses the document knows; a paused project's database is UNKNOWN there (it is not running). */
const DATABASE_STATUSES: readonly string[] = ['ACTIVE_HEALTHY', 'ACTIVE_UNHEALTHY', 'COMING_UP', 'GOING_DOWN', 'INIT_FAILED', 'REMOVED', 'RESTORING', 'RESTARTING', 'RESIZING'] satisfies DatabaseStatus[]
const databaseStatusOf = (status: string): DatabaseStatus => (DATABASE_STATUSES.includes(status) ? (status as DatabaseStatus) : 'UNKNOWN')

/** The hosted API's opt-in tags for an assistant level: each level adds to the one below it. */
function optInTags(level: AiOptInLevel): V1OrganizationSlugResponse['opt_in_tags'] {
  const tags: V1OrganizationSlugResponse['opt_in_tags'] = []
  if (level !== 'disabled') tags.push('AI_SQL_GENERATOR_OPT_IN')
  if (level === 'schema_and_log' || level === 'schema_and_log_and_data') tags.push('AI_LOG_GENERATOR_OPT_IN')
  if (level === 'schema_and_log_and_data') tags.push('AI_DATA_GENERATOR_OPT_IN')
  return tags
}

/** An entry of GET /v1/organizations/{slug}/projects: the project and its one (primary) database. */
function organizationProject(row: ProjectRow): OrganizationProject {
  return {
    ref: row.ref,
    name: row.name,
    cloud_provider: 'local',
    region: row.region,
    is_branch: false,
    status: row.status,
    inserted_at: row.inserted_at.toISOString(),
    databases: [
      {
        infra_compute_size: row.compute_size,
        region: row.region,
        status: databaseStatusOf(row.status),
        cloud_provider: 'local',
        identifier: row.ref,
        type: 'PRIMARY',
      },
    ],
  }
}
