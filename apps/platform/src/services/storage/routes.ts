import fs from 'node:fs'
import path from 'node:path'
import { BucketParams, RefParams, UpdateStorageConfigBody } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { signLink, verifyLink } from '../../control/signed-urls.js'
import { STORAGE_SCHEMA_VERSION } from './schema.js'
import type { GatewayProject } from '../../gateway/project-directory.js'
import { sendStorageAnswer } from './gateway-route.js'
import { findBucket, insertBucket, listBuckets, toBucket, updateBucket } from './buckets.js'
import { SERVICE_CALLER } from './database.js'
import { fromDatabaseError, StorageError } from './errors.js'
import { deleteBucket, emptyBucket } from './handlers/buckets.js'
import { buildArchive, findArchive, isBuilding, requestArchive, type ArchiveSource } from './archive.js'
import { identityOf, projectAccess } from '../../http/access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, notFound, conflict, failed, parse } from '../../errors.js'
import { route } from '../../http/typed-route.js'
import type { StorageConfigResponse } from 'supabase-management-js'

const ARCHIVE_LINK_SECONDS = 300

/** Object calls that only read: downloads, info, listing and signing a download URL. */
function isObjectRead(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return true
  return method === 'POST' && (path.startsWith('/object/list/') || path.startsWith('/object/sign/'))
}

/**
 * The dashboard's bucket calls and the storage archive (the SQL editor spec's storage archive calls and
 * errors). Buckets are rows of the project's storage.buckets, written as the platform (service role):
 * the same data supabase-js reaches at /storage/v1. Reads: 'projects.read' (DESIGN.md permission table:
 * read project / project_storage docs). Bucket writes: 'sql.write' (writing the project's data: Owner,
 * Administrator, Developer). The archive holds only what a reader may already read, so requesting and
 * downloading it needs 'projects.read'.
 */
export async function storageRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  /** The running project whose storage a route reads; storage lives in its database. */
  const running = async (ref: string): Promise<GatewayProject> => {
    // getCurrent: a status cached while the project was coming up is read again, so the first storage call after
    // ACTIVE_HEALTHY is not refused with an out-of-date 409.
    const project = await ctx.directory.getCurrent(ref)
    if (!project) throw notFound(`Project ${ref} not found`)
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(`Storage is not available while the project is not running (status: ${project.status})`)
    return project
  }
  const asPlatform = <T>(project: GatewayProject, work: Parameters<typeof ctx.storage.dbs.asCaller<T>>[2]) =>
    ctx.storage.dbs.asCaller(project, SERVICE_CALLER, work)
  const archiveSource = (ref: string): ArchiveSource => async () => ctx.storage.archiveContents(await running(ref))

  route(app, 'GET /platform/storage/{ref}/buckets', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const rows = await asPlatform(await running(ref), (client) => listBuckets(client))
    return rows.map(toBucket)
  })

  // The Management API's bucket list (V1StorageBucketResponse): the same rows, fewer fields.
  route(app, 'GET /v1/projects/{ref}/storage/buckets', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const rows = await asPlatform(await running(ref), (client) => listBuckets(client))
    return rows.map(toBucket).map(({ id, name, owner, created_at, updated_at, public: isPublic }) => ({ id, name, owner, created_at, updated_at, public: isPublic }))
  })

  // The Management API's storage config: the project's largest object; image transformation (/render/image, sharp),
  // on unless the project turned it off; the other optional features are served to none.
  const storageConfig = async (ref: string): Promise<StorageConfigResponse> => ({
    fileSizeLimit: await ctx.storage.projectMaxFileBytes(ref),
    features: {
      imageTransformation: { enabled: await ctx.storage.imageTransformationEnabled(ref) },
      s3Protocol: { enabled: false },
      icebergCatalog: { enabled: false, maxNamespaces: 0, maxTables: 0, maxCatalogs: 0 },
      vectorBuckets: { enabled: false, maxBuckets: 0, maxIndexes: 0 },
    },
    capabilities: { list_v2: true, iceberg_catalog: false },
    external: { upstreamTarget: 'main' },
    migrationVersion: STORAGE_SCHEMA_VERSION,
    databasePoolMode: 'recycled',
  })

  route(app, 'GET /v1/projects/{ref}/config/storage', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    return storageConfig(ref)
  })

  route(app, 'PATCH /v1/projects/{ref}/config/storage', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.update')
    const body = parse(UpdateStorageConfigBody, request.body ?? {})
    if (body.fileSizeLimit !== undefined) {
      if (body.fileSizeLimit > ctx.storage.maxFileBytes) {
        throw invalidInput(`fileSizeLimit may be at most ${ctx.storage.maxFileBytes} bytes on this installation (STRATUM_STORAGE_MAX_FILE_BYTES)`)
      }
      await ctx.storage.setProjectMaxFileBytes(ref, body.fileSizeLimit)
    }
    const imageTransformation = body.features?.imageTransformation?.enabled
    if (imageTransformation !== undefined) await ctx.storage.setImageTransformation(ref, imageTransformation)
    return storageConfig(ref)
  })

  route(app, 'POST /platform/storage/{ref}/buckets', async (request, reply, input) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const body = input.body
    const id = (body.id ?? body.name)!
    try {
      const row = await asPlatform(await running(ref), (client) =>
        insertBucket(client, { id, public: body.public, allowed_mime_types: body.allowed_mime_types, file_size_limit: body.file_size_limit, type: body.type }, null),
      )
      reply.code(201)
      return toBucket(row)
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw conflict(`A bucket named ${id} already exists`)
      throw error
    }
  })

  app.get('/platform/storage/:ref/buckets/:id', async (request) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const row = await asPlatform(await running(ref), (client) => findBucket(client, id))
    if (!row) throw notFound(`Bucket ${id} not found`)
    return toBucket(row)
  })

  route(app, 'PUT /platform/storage/{ref}/buckets/{id}', async (request, _reply, input) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const changes = input.body
    const row = await asPlatform(await running(ref), (client) => updateBucket(client, id, changes))
    if (!row) throw notFound(`Bucket ${id} not found`)
    return toBucket(row)
  })

  // The dashboard deletes a bucket with its objects (storage-api itself refuses a bucket that is not empty).
  route(app, 'DELETE /platform/storage/{ref}/buckets/{id}', async (request) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const project = await running(ref)
    try {
      await emptyBucket(ctx.storage, { project }, SERVICE_CALLER, id)
      await deleteBucket(ctx.storage, { project }, SERVICE_CALLER, id)
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NoSuchBucket') throw notFound(`Bucket ${id} not found`)
      throw fromDatabaseError(error) ?? error
    }
    return { message: `Successfully deleted bucket ${id}` }
  })

  // The Storage page's object calls: storage-api's own paths below /object, run as the platform (service
  // role) after the member's permission is checked here. Bodies stream through unparsed (uploads).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    scope.all('/platform/storage/:ref/objects/*', async (request, reply) => {
      const { ref } = parse(RefParams, request.params)
      const below = request.url.slice(request.url.indexOf('/objects/') + '/objects'.length)
      const mark = below.indexOf('?')
      const path = `/object${mark < 0 ? below : below.slice(0, mark)}`
      await projectAccess(ctx.db, request, ref, isObjectRead(request.method, path) ? 'projects.read' : 'sql.write')
      const project = await running(ref)
      try {
        const answer = await ctx.storage.handle({
          project, method: request.method, path, query: new URLSearchParams(mark < 0 ? '' : below.slice(mark + 1)),
          headers: request.headers, raw: request.raw, caller: SERVICE_CALLER,
        })
        return sendStorageAnswer(reply, answer)
      } catch (error) {
        if (error instanceof StorageError) return reply.code(error.status).send(error.body())
        throw error
      }
    })
  })

  // The archive: POST starts a build, GET is polled (every 5 s by the dashboard) until fileUrl.
  route(app, 'POST /platform/storage/{ref}/archive', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    await running(ref)
    await requestArchive(ctx.db, archiveSource(ref), ctx.config.dataDir, ref, identityOf(request).user.id, (err) =>
      request.log.error({ err, ref }, 'storage archive failed'))
    reply.code(201)
    return {}
  })

  route(app, 'GET /platform/storage/{ref}/archive', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const archive = await findArchive(ctx.db, ref)
    if (!archive) throw notFound('No storage archive was requested for this project')
    if (archive.status === 'failed') throw failed(`Failed to create storage archive: ${archive.error ?? 'unknown error'}`)
    if (archive.status === 'building') {
      // Requested before a restart of the platform: build it again.
      if (!isBuilding(ref, archive.id)) {
        void buildArchive(ctx.db, archiveSource(ref), ctx.config.dataDir, ref, archive.id, (err) => request.log.error({ err, ref }, 'storage archive failed'))
      }
      return {}
    }
    const token = signLink(ctx.secrets, `storagearchive-${ref}-${archive.id}`, ARCHIVE_LINK_SECONDS)
    return { fileUrl: `/platform/storage/${ref}/archive/download?token=${token}` }
  })

  // The signed link is the credential (a public route in auth-hook.ts): it names the archive and
  // expires in minutes, like backup downloads. A query parameter: the token is longer than
  // Fastify's 100-character limit for path parameters.
  app.get('/platform/storage/:ref/archive/download', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    const { token } = parse(z.object({ token: z.string({ error: 'token is required' }).max(300) }), request.query)
    const subject = verifyLink(ctx.secrets, token)
    const prefix = `storagearchive-${ref}-`
    if (!subject?.startsWith(prefix)) throw forbidden('This download link is invalid or has expired')
    const archive = await findArchive(ctx.db, ref)
    if (!archive || archive.id !== subject.slice(prefix.length) || archive.status !== 'ready' || !archive.file_path || !fs.existsSync(archive.file_path)) {
      throw notFound('This storage archive no longer exists')
    }
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${path.basename(archive.file_path)}"`)
      .send(fs.createReadStream(archive.file_path))
  })
}
