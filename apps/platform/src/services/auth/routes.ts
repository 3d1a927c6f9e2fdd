import { ProjectAuthSettingsUpdate, RefParams, type Permission, type ProjectAuthSettings } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { publicApiBase } from '../../gateway/public-url.js'
import { updateAuthSettings } from './config.js'
import { projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { conflict, parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'

const UserParams = RefParams.extend({ id: z.uuid('Not a user id') })
const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(1_000).optional(),
  keywords: z.string().max(255).optional(),
})

/**
 * The project's auth service, seen from the dashboard and the Management API: its settings
 * (/v1/projects/{ref}/config/auth, and /platform/auth/{ref}/config as Studio calls it), its users
 * (through the service's own admin API, as the service role) and its outbox.
 *
 * Members read the settings and the users; changing settings is a project setting (projects.update);
 * creating, inviting and deleting users is a write (sql.write, as the SQL editor could do it); the
 * outbox holds sign-in links, which open any account, so only those who may see the service key read it.
 */
export async function projectAuthRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  const readSettings = async (request: FastifyRequest): Promise<ProjectAuthSettings> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    return ctx.auth.settingsOf(project.ref)
  }
  const updateSettings = async (request: FastifyRequest): Promise<ProjectAuthSettings> => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.update')
    const change = parse(ProjectAuthSettingsUpdate, request.body ?? {})
    const settings = await updateAuthSettings(ctx.db, ctx.secrets, project.ref, change)
    ctx.directory.changed(project.ref)
    return settings
  }
  route(app, 'GET /v1/projects/{ref}/config/auth', readSettings)
  route(app, 'PATCH /v1/projects/{ref}/config/auth', updateSettings)
  route(app, 'GET /platform/auth/{ref}/config', readSettings)
  route(app, 'PATCH /platform/auth/{ref}/config', updateSettings)

  route(app, 'GET /platform/projects/{ref}/auth/outbox', async (request) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, 'service_api_keys.read')
    return ctx.auth.outbox.list(project.ref)
  })

  /** Runs an admin API call of the project's auth service as its service role; answers what it answers. */
  const asServiceRole = async (
    request: FastifyRequest,
    reply: FastifyReply,
    permission: Permission,
    call: { method: string; path: string; query?: Record<string, string>; body?: Record<string, unknown> },
  ) => {
    const { ref } = parse(RefParams, request.params)
    const { project: row } = await projectAccess(ctx.db, request, ref, permission)
    const project = await ctx.directory.get(row.ref)
    if (!project || project.status !== 'ACTIVE_HEALTHY') throw conflict('The project must be running to manage its users')
    const answer = await ctx.auth.handle(
      {
        project,
        method: call.method,
        path: call.path,
        query: new URLSearchParams(call.query ?? {}),
        body: call.body ?? {},
        claims: { role: 'service_role' },
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
        publicBase: publicApiBase(ctx.config, row.ref, request.headers.host, request.protocol),
      },
      '2024-01-01',
    )
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body ?? {})
  }

  route(app, 'GET /platform/auth/{ref}/users', async (request, reply) => {
    const query = parse(ListQuery, request.query)
    return asServiceRole(request, reply, 'projects.read', {
      method: 'GET',
      path: '/admin/users',
      query: { page: String(query.page ?? 1), per_page: String(query.per_page ?? 50), ...(query.keywords ? { filter: query.keywords } : {}) },
    })
  })
  route(app, 'POST /platform/auth/{ref}/users', async (request, reply) =>
    asServiceRole(request, reply, 'sql.write', { method: 'POST', path: '/admin/users', body: objectBody(request.body) }),
  )
  route(app, 'DELETE /platform/auth/{ref}/users/{id}', async (request, reply) => {
    const { id } = parse(UserParams, request.params)
    return asServiceRole(request, reply, 'sql.write', { method: 'DELETE', path: `/admin/users/${id}` })
  })
  route(app, 'POST /platform/auth/{ref}/invite', async (request, reply) =>
    asServiceRole(request, reply, 'sql.write', { method: 'POST', path: '/invite', body: objectBody(request.body) }),
  )
  route(app, 'POST /platform/auth/{ref}/recover', async (request, reply) =>
    asServiceRole(request, reply, 'sql.write', { method: 'POST', path: '/recover', body: objectBody(request.body) }),
  )
}

function objectBody(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}
