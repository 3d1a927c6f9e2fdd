import { ProjectAuthSettingsUpdate, RefParams, type Permission, type ProjectAuthSettings } from '@stratum/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { publicApiBase } from '../../gateway/public-url.js'
import { updateAuthSettings } from './config.js'
import { projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { conflict, invalidInput, notFound, parse } from '../../errors.js'
import {
  createSigningKey,
  deleteSigningKey,
  getSigningKey,
  legacySigningKey,
  listSigningKeys,
  SigningKeyError,
  updateSigningKeyStatus,
} from '../../keys/project-keys.js'
import { route } from '../../http/typed-route.js'

const UserParams = RefParams.extend({ id: z.uuid('Not a user id') })
const KeyParams = RefParams.extend({ id: z.uuid('Not a signing key id') })
const JwkObject = z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 16_384, 'private_jwk is too large')
const CreateSigningKeyBody = z
  .object({ algorithm: z.enum(['EdDSA', 'ES256', 'RS256', 'HS256']), status: z.enum(['in_use', 'standby']).optional(), private_jwk: JwkObject.optional() })
  .strict()
const UpdateSigningKeyBody = z.object({ status: z.enum(['in_use', 'previously_used', 'revoked', 'standby']) }).strict()

/** A signing-key refusal as the platform's own error (400 or 404 with its message). */
async function keyChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof SigningKeyError) throw error.status === 404 ? notFound(error.message) : invalidInput(error.message)
    throw error
  }
}
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

  /*
   * The project's JWT signing keys (the Management API's /config/auth/signing-keys, SigningKeyResponse shapes): members
   * read them (public halves only); creating, rotating and revoking is a change of the project's secrets. Every change
   * reaches the gateway's directory, and with it every service's verification and the auth service's signing.
   */
  const keysAccess = async (request: FastifyRequest, write: boolean) => {
    const { ref } = parse(RefParams, request.params)
    const { project } = await projectAccess(ctx.db, request, ref, write ? 'secrets.write' : 'projects.read')
    return project.ref
  }
  const changed = <T>(ref: string, value: T): T => {
    ctx.directory.changed(ref)
    return value
  }
  app.get('/v1/projects/:ref/config/auth/signing-keys', async (request) => ({ keys: await listSigningKeys(ctx.db, await keysAccess(request, false)) }))
  app.get('/v1/projects/:ref/config/auth/signing-keys/legacy', async (request) => legacySigningKey(ctx.db, await keysAccess(request, false)))
  app.post('/v1/projects/:ref/config/auth/signing-keys/legacy', async (request, reply) => {
    // The legacy secret is always one of the keys here: this answers it, as Supabase does once it was imported.
    const ref = await keysAccess(request, true)
    return reply.code(201).send(changed(ref, await legacySigningKey(ctx.db, ref)))
  })
  app.post('/v1/projects/:ref/config/auth/signing-keys', async (request, reply) => {
    const ref = await keysAccess(request, true)
    const body = parse(CreateSigningKeyBody, request.body ?? {})
    const key = await keyChange(() => createSigningKey(ctx.db, ctx.secrets, ref, body))
    return reply.code(201).send(changed(ref, key))
  })
  app.get('/v1/projects/:ref/config/auth/signing-keys/:id', async (request) => {
    const ref = await keysAccess(request, false)
    const { id } = parse(KeyParams, request.params)
    return keyChange(() => getSigningKey(ctx.db, ref, id))
  })
  app.patch('/v1/projects/:ref/config/auth/signing-keys/:id', async (request) => {
    const ref = await keysAccess(request, true)
    const { id } = parse(KeyParams, request.params)
    const body = parse(UpdateSigningKeyBody, request.body ?? {})
    return changed(ref, await keyChange(() => updateSigningKeyStatus(ctx.db, ref, id, body.status)))
  })
  app.delete('/v1/projects/:ref/config/auth/signing-keys/:id', async (request) => {
    const ref = await keysAccess(request, true)
    const { id } = parse(KeyParams, request.params)
    return changed(ref, await keyChange(() => deleteSigningKey(ctx.db, ref, id)))
  })

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
