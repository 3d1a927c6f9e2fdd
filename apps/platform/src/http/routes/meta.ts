import { RefParams, type PgMetaSchemaListQuery } from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ProjectRow } from '../../control/project-store.js'
import { OPENAPI_MIME } from '../../meta/openapi.js'
import { MetaService, metaTargetOf, type MetaTarget } from '../../meta/service.js'
import { listPgMetaColumnPrivileges } from '../../meta/pg-meta-column-privileges.js'
import { listPgMetaFunctions } from '../../meta/pg-meta-functions.js'
import { listPgMetaIndexes } from '../../meta/pg-meta-indexes.js'
import type { SchemaListOptions } from '../../meta/pg-meta-list.js'
import { listPgMetaPolicies } from '../../meta/pg-meta-policies.js'
import { listPgMetaPublications } from '../../meta/pg-meta-publications.js'
import { listPgMetaRoles } from '../../meta/pg-meta-roles.js'
import { listPgMetaTriggers } from '../../meta/pg-meta-triggers.js'
import { listPgMetaTypes } from '../../meta/pg-meta-types.js'
import type { Queryable } from '../../meta/queryable.js'
import { projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { notFound, conflict, unavailable, parse } from '../../errors.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'
import { route } from '../typed-route.js'

/**
 * Where the REST API is reached: host:port (PostgREST always writes the port), scheme and base path, read
 * from the public URL the project's own PostgREST is given (services/rest) as PostgREST reads it, so that
 * both documents say the same: the project URL on the project listener's own origin (main.ts gives it once
 * that listener's port is known). Before that, the address this request came to stands in, at the root.
 */
function apiLocation(ctx: PlatformContext, request: FastifyRequest, ref: string): { host: string; scheme: 'http' | 'https'; basePath: string } {
  const advertised = ctx.rest.publicApiUrl(ref)
  const url = new URL(advertised ?? ctx.config.publicUrl ?? `${request.protocol}://${request.host}`)
  const scheme = url.protocol === 'https:' ? 'https' : 'http'
  const basePath = advertised ? url.pathname.replace(/\/+$/, '') || '/' : '/'
  return { host: `${url.hostname}:${url.port || (scheme === 'https' ? 443 : 80)}`, scheme, basePath }
}

/**
 * Introspection of a project database: the tables listing and the Database pages' listings (pg-meta shapes),
 * and PostgREST's OpenAPI document. Thin: validation, access, status; the work and its cache live in meta/.
 */
export async function metaRoutes(app: FastifyInstance, ctx: PlatformContext, meta = new MetaService(ctx.projects.connections)): Promise<void> {
  app.addHook('onClose', () => meta.close())

  async function target(request: FastifyRequest, ref: string): Promise<MetaTarget> {
    const { project } = await projectAccess(ctx.db, request, ref, 'projects.read')
    assertActive(project)
    return metaTargetOf(ctx, project)
  }

  async function reading<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (isDatabaseUnreachable(error)) throw unavailable(UNREACHABLE_MESSAGE)
      throw error
    }
  }

  route(app, 'GET /platform/pg-meta/{ref}/tables', async (request, _reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const query = input.query
    const project = await target(request, ref)
    return reading(() =>
      meta.listTables(project, {
        includeColumns: query.include_columns,
        includeSystemSchemas: query.include_system_schemas,
        includedSchemas: query.included_schemas,
        excludedSchemas: query.excluded_schemas,
        limit: query.limit,
        offset: query.offset,
      }),
    )
  })

  /**
   * The Database pages' listings in postgres-meta's shapes: the project's access first, then the query (a 403
   * before a 400), then one catalog query as the read-only login (meta/pg-meta-*.ts).
   */
  async function listing<Q, T>(request: FastifyRequest, query: () => Q, load: (db: Queryable, options: Q) => Promise<T>): Promise<T> {
    const { ref } = parse(RefParams, request.params)
    const project = await target(request, ref)
    const options = query()
    return reading(() => meta.catalog(project, (db) => load(db, options)))
  }

  route(app, 'GET /platform/pg-meta/{ref}/functions', (request, _reply, input) => listing(request, () => schemaList(input.query), listPgMetaFunctions))
  route(app, 'GET /platform/pg-meta/{ref}/triggers', (request, _reply, input) => listing(request, () => schemaList(input.query), listPgMetaTriggers))
  route(app, 'GET /platform/pg-meta/{ref}/indexes', (request, _reply, input) => listing(request, () => schemaList(input.query), listPgMetaIndexes))
  route(app, 'GET /platform/pg-meta/{ref}/policies', (request, _reply, input) => listing(request, () => schemaList(input.query), listPgMetaPolicies))
  route(app, 'GET /platform/pg-meta/{ref}/column-privileges', (request, _reply, input) =>
    listing(request, () => schemaList(input.query), listPgMetaColumnPrivileges),
  )
  route(app, 'GET /platform/pg-meta/{ref}/types', (request, _reply, input) =>
    listing(
      request,
      () => ({ ...schemaList(input.query), includeArrayTypes: input.query.include_array_types, includeTableTypes: input.query.include_table_types }),
      listPgMetaTypes,
    ),
  )
  route(app, 'GET /platform/pg-meta/{ref}/publications', (request, _reply, input) => listing(request, () => input.query, listPgMetaPublications))
  route(app, 'GET /platform/pg-meta/{ref}/roles', (request, _reply, input) =>
    listing(request, () => ({ ...input.query, includeDefaultRoles: input.query.include_default_roles }), listPgMetaRoles),
  )

  route(app, 'GET /platform/projects/{ref}/api/rest', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    const query = input.query
    const project = await target(request, ref)
    const result = await reading(() => meta.openApi(project, { role: query.role, schema: query.schema, ...apiLocation(ctx, request, ref) }))
    if (!result) throw notFound(`Schema ${query.schema} not found`)
    const wantsOpenApi = (request.headers.accept ?? '').includes(OPENAPI_MIME)
    return reply.type(wantsOpenApi ? `${OPENAPI_MIME}; charset=utf-8` : 'application/json; charset=utf-8').send(result.json)
  })
}

/** postgres-meta's schema and page parameters as the listings take them. */
function schemaList(query: PgMetaSchemaListQuery): SchemaListOptions {
  return {
    includeSystemSchemas: query.include_system_schemas,
    includedSchemas: query.included_schemas,
    excludedSchemas: query.excluded_schemas,
    limit: query.limit,
    offset: query.offset,
  }
}

function assertActive(project: ProjectRow): void {
  if (project.status !== 'ACTIVE_HEALTHY') {
    throw conflict(`Project ${project.ref} is not ready: its status is ${project.status}, and its database can be read only when it is ACTIVE_HEALTHY`)
  }
}
