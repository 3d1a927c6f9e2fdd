import {
  ApiKeyParams,
  JwtSecretUpdateBody,
  LegacyApiKeysQuery,
  RefParams,
  roleCan,
  type ApiKeyResponse,
  type ApiKeysLastUsed,
  type LegacyApiKeysResponse,
  type ProjectSettings,
  type ServiceApiKey,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createNamedKey, deleteNamedKey, findNamedKey, listNamedKeys, updateNamedKey, type NamedKeyRow } from '../../keys/named-keys.js'
import { ensureProjectKeys, setLegacyEnabled, type ProjectKeys } from '../../keys/project-keys.js'
import { latestUpdate, requestJwtSecretUpdate, toUpdateStatus } from '../../keys/rotation.js'
import { publicApiBase } from '../../gateway/public-url.js'
import { signaturePrefix } from '../../gateway/request-log-entry.js'
import { keysLastUsed } from '../../observability/logs/keys-last-used.js'
import { assertCan } from '../../auth/project-access.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, conflict, notFound, parse } from '../../errors.js'
import { route } from '../typed-route.js'

/** The project's API base, `${protocol}://${endpoint}`: the gateway under /projects/{ref} (or {ref}.<domain>). */
function appConfig(ctx: PlatformContext, request: FastifyRequest, ref: string): ProjectSettings['app_config'] {
  const base = new URL(publicApiBase(ctx.config, ref, request.headers.host, request.protocol))
  const protocol = base.protocol === 'https:' ? 'https' : 'http'
  return { endpoint: `${base.host}${base.pathname === '/' ? '' : base.pathname}`, protocol, db_schema: 'public' }
}

const LEGACY_FIXED = 'The legacy anon and service_role keys cannot be changed or deleted here: rotate the JWT secret, or disable legacy keys'

/** A publishable key is public; a secret one shows only its prefix unless revealed (the caller may read secrets: checked by the route). */
function namedKey(ctx: PlatformContext, row: NamedKeyRow, reveal: boolean): ApiKeyResponse {
  const shown = row.type === 'publishable' || reveal
  return {
    name: row.name,
    api_key: shown ? ctx.secrets.open(row.key_sealed) : `${row.prefix}${'•'.repeat(12)}`,
    id: row.id,
    type: row.type,
    prefix: row.prefix,
    description: row.description,
    hash: row.key_sha256,
    secret_jwt_template: row.secret_jwt_template,
    inserted_at: row.inserted_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function legacyKey(keys: ProjectKeys, role: 'anon' | 'service_role'): ApiKeyResponse {
  return {
    name: role,
    api_key: role === 'anon' ? keys.anonKey : keys.serviceRoleKey,
    id: role,
    type: 'legacy',
    prefix: null,
    description: role === 'anon' ? 'Legacy anon API key' : 'Legacy service_role API key',
    hash: null,
    secret_jwt_template: null,
    inserted_at: keys.createdAt.toISOString(),
    updated_at: keys.updatedAt.toISOString(),
  }
}

/**
 * API keys and the JWT secret: the Management API's legacy-key calls under /v1, and the project
 * settings, JWT secret update and its status under /platform. Who may see what (docs/ARCHITECTURE.md permission table):
 * every member sees the anon key; the service_role key and the JWT secret need
 * service_api_keys.read (they are left out for the others); changing them needs secrets.write.
 */
export async function apiKeyRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function access(request: FastifyRequest, permission: 'projects.read' | 'service_api_keys.read' | 'secrets.write') {
    const { ref } = parse(RefParams, request.params)
    return projectAccess(ctx.db, request, ref, permission)
  }

  /**
   * Every key the caller may see: the legacy pair (service_role only with service_api_keys.read),
   * publishable keys, and secret keys with service_api_keys.read, masked unless `reveal`.
   */
  route(app, 'GET /v1/projects/{ref}/api-keys', async (request, _reply, input): Promise<ApiKeyResponse[]> => {
    const { project, role } = await access(request, 'projects.read')
    const { reveal = false } = input.query
    const keys = await ensureProjectKeys(ctx.db, ctx.secrets, project.ref)
    const seesSecrets = roleCan(role, 'service_api_keys.read')
    const list = [legacyKey(keys, 'anon')]
    if (seesSecrets) list.push(legacyKey(keys, 'service_role'))
    for (const row of await listNamedKeys(ctx.db, project.ref)) {
      if (row.type === 'secret' && !seesSecrets) continue
      list.push(namedKey(ctx, row, reveal))
    }
    return list
  })

  route(app, 'POST /v1/projects/{ref}/api-keys', async (request, reply, input) => {
    const { project } = await access(request, 'secrets.write')
    const { reveal = false } = input.query
    const body = input.body
    const row = await createNamedKey(ctx.db, ctx.secrets, project.ref, {
      type: body.type,
      name: body.name,
      description: body.description,
      secretJwtTemplate: body.secret_jwt_template,
    })
    if (!row) throw conflict(`An API key named ${body.name} already exists`)
    // The gateway knows the key from its next request (the database's notification may come a little later).
    ctx.directory.changed(project.ref)
    reply.code(201)
    return namedKey(ctx, row, reveal)
  })

  route(app, 'GET /v1/projects/{ref}/api-keys/{id}', async (request, _reply, input): Promise<ApiKeyResponse> => {
    const { ref, id } = parse(ApiKeyParams, request.params)
    const { reveal = false } = input.query
    const { project, role } = await projectAccess(ctx.db, request, ref, 'projects.read')
    if (id === 'anon' || id === 'service_role') {
      if (id === 'service_role') assertCan(role, 'service_api_keys.read')
      return legacyKey(await ensureProjectKeys(ctx.db, ctx.secrets, project.ref), id)
    }
    const row = await findNamedKey(ctx.db, project.ref, id)
    if (!row) throw notFound(`API key ${id} not found`)
    if (row.type === 'secret') assertCan(role, 'service_api_keys.read')
    return namedKey(ctx, row, reveal)
  })

  route(app, 'PATCH /v1/projects/{ref}/api-keys/{id}', async (request, _reply, input): Promise<ApiKeyResponse> => {
    const { ref, id } = parse(ApiKeyParams, request.params)
    const { reveal = false } = input.query
    const body = input.body
    const { project } = await projectAccess(ctx.db, request, ref, 'secrets.write')
    if (id === 'anon' || id === 'service_role') throw invalidInput(LEGACY_FIXED)
    let row
    try {
      row = await updateNamedKey(ctx.db, project.ref, id, { name: body.name, description: body.description, secretJwtTemplate: body.secret_jwt_template })
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw conflict(`An API key named ${body.name} already exists`)
      throw error
    }
    if (!row) throw notFound(`API key ${id} not found`)
    return namedKey(ctx, row, reveal)
  })

  route(app, 'DELETE /v1/projects/{ref}/api-keys/{id}', async (request, _reply, input): Promise<ApiKeyResponse> => {
    const { ref, id } = parse(ApiKeyParams, request.params)
    const { reveal = false } = input.query
    const { project } = await projectAccess(ctx.db, request, ref, 'secrets.write')
    if (id === 'anon' || id === 'service_role') throw invalidInput(LEGACY_FIXED)
    const row = await deleteNamedKey(ctx.db, project.ref, id)
    if (!row) throw notFound(`API key ${id} not found`)
    // Refused from the gateway's next request on.
    ctx.directory.changed(project.ref)
    return namedKey(ctx, row, reveal)
  })

  route(app, 'GET /v1/projects/{ref}/api-keys/legacy', async (request): Promise<LegacyApiKeysResponse> => {
    const { project } = await access(request, 'projects.read')
    return { enabled: (await ensureProjectKeys(ctx.db, ctx.secrets, project.ref)).legacyEnabled }
  })

  // The spec is unsure whether the client helper sends PUT or POST: both are accepted.
  const toggleLegacy = async (request: FastifyRequest): Promise<LegacyApiKeysResponse> => {
    const { project } = await access(request, 'secrets.write')
    const { enabled } = parse(LegacyApiKeysQuery, request.query)
    return { enabled: await setLegacyEnabled(ctx.db, ctx.secrets, project.ref, enabled) }
  }
  route(app, 'PUT /v1/projects/{ref}/api-keys/legacy', toggleLegacy)
  app.post('/v1/projects/:ref/api-keys/legacy', toggleLegacy)

  route(app, 'GET /platform/projects/{ref}/settings', async (request): Promise<ProjectSettings> => {
    const { project, role } = await access(request, 'projects.read')
    const keys = await ensureProjectKeys(ctx.db, ctx.secrets, project.ref)
    const mayRead = roleCan(role, 'service_api_keys.read')
    const serviceApiKeys: ServiceApiKey[] = [{ api_key: keys.anonKey, name: 'anon', tags: 'anon' }]
    if (mayRead) serviceApiKeys.push({ api_key: keys.serviceRoleKey, name: 'service_role', tags: 'service_role' })
    return {
      ref: project.ref,
      name: project.name,
      app_config: appConfig(ctx, request, project.ref),
      ...(mayRead ? { jwt_secret: keys.jwtSecret } : {}),
      service_api_keys: serviceApiKeys,
    }
  })

  // The reference client sends PATCH with {jwt_secret, change_tracking_id}; POST is the same call.
  const updateSecret = async (request: FastifyRequest) => {
    const { project } = await access(request, 'secrets.write')
    const body = parse(JwtSecretUpdateBody, request.body)
    // The platform's job runner runs it, and resumes it after a restart (keys/rotation-job.ts).
    const update = await requestJwtSecretUpdate(
      ctx,
      project.ref,
      { jwtSecret: body.jwt_secret, changeTrackingId: body.change_tracking_id },
      identityOf(request).user.id,
    )
    return toUpdateStatus(update)
  }
  route(app, 'POST /platform/projects/{ref}/config/secrets', updateSecret)
  app.patch('/platform/projects/:ref/config/secrets', updateSecret)

  route(app, 'GET /platform/projects/{ref}/config/secrets/update-status', async (request) => {
    const { project } = await access(request, 'projects.read')
    return toUpdateStatus(await latestUpdate(ctx.db, project.ref))
  })

  // A log query on the log store's edge_logs over the last 24 hours (the spec's §7), by the current keys' role and
  // signature; a key no request used answers null, never an invented time.
  route(app, 'GET /platform/projects/{ref}/api-keys/last-used', async (request): Promise<ApiKeysLastUsed> => {
    const { project } = await access(request, 'projects.read')
    const keys = await ensureProjectKeys(ctx.db, ctx.secrets, project.ref)
    return keysLastUsed(ctx.db, project.ref, { anon: signaturePrefix(keys.anonKey), service_role: signaturePrefix(keys.serviceRoleKey) })
  })
}
