import fs from 'node:fs'
import path from 'node:path'
import { BucketParams, CreateBucketBody, RefParams, UpdateBucketBody } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { signLink, verifyLink } from '../../control/signed-urls.js'
import { bucketDir, deleteBucket, findBucket, insertBucket, listBuckets, updateBucket } from '../../storage/buckets.js'
import { buildArchive, findArchive, isBuilding, requestArchive } from '../../storage/archive.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../context.js'
import { conflict, HttpError, notFound, parse } from '../errors.js'

const ARCHIVE_LINK_SECONDS = 300

/**
 * Storage buckets as records, and the storage archive (the SQL editor spec's storage archive calls and errors).
 * Reads: 'projects.read' (docs/ARCHITECTURE.md permission table: read project / project_storage docs). Bucket writes: 'sql.write'
 * (writing the project's data: Owner, Administrator, Developer). The archive holds only what a
 * reader may already read, so requesting and downloading it needs 'projects.read'.
 */
export async function storageRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  app.get('/platform/storage/:ref/buckets', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    return listBuckets(ctx.db, ref)
  })

  app.post('/platform/storage/:ref/buckets', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const body = parse(CreateBucketBody, request.body)
    const id = (body.id ?? body.name)!
    const created = await insertBucket(ctx.db, ref, identityOf(request).user.id, {
      id, public: body.public, allowed_mime_types: body.allowed_mime_types, file_size_limit: body.file_size_limit, type: body.type,
    })
    if (!created) throw conflict(`A bucket named ${id} already exists`)
    fs.mkdirSync(bucketDir(ctx.config.dataDir, ref, id), { recursive: true })
    return reply.code(201).send(created)
  })

  app.get('/platform/storage/:ref/buckets/:id', async (request) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const bucket = await findBucket(ctx.db, ref, id)
    if (!bucket) throw notFound(`Bucket ${id} not found`)
    return bucket
  })

  app.put('/platform/storage/:ref/buckets/:id', async (request) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    const changes = parse(UpdateBucketBody, request.body)
    const bucket = await updateBucket(ctx.db, ref, id, changes)
    if (!bucket) throw notFound(`Bucket ${id} not found`)
    return bucket
  })

  app.delete('/platform/storage/:ref/buckets/:id', async (request) => {
    const { ref, id } = parse(BucketParams, request.params)
    await projectAccess(ctx.db, request, ref, 'sql.write')
    if (!(await deleteBucket(ctx.db, ctx.config.dataDir, ref, id))) throw notFound(`Bucket ${id} not found`)
    return { message: `Successfully deleted bucket ${id}` }
  })

  // The archive: POST starts a build, GET is polled (every 5 s by the dashboard) until fileUrl.
  app.post('/platform/storage/:ref/archive', async (request, reply) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    await requestArchive(ctx.db, ctx.config.dataDir, ref, identityOf(request).user.id, (err) =>
      request.log.error({ err, ref }, 'storage archive failed'))
    return reply.code(201).send({})
  })

  app.get('/platform/storage/:ref/archive', async (request) => {
    const { ref } = parse(RefParams, request.params)
    await projectAccess(ctx.db, request, ref, 'projects.read')
    const archive = await findArchive(ctx.db, ref)
    if (!archive) throw notFound('No storage archive was requested for this project')
    if (archive.status === 'failed') throw new HttpError(500, `Failed to create storage archive: ${archive.error ?? 'unknown error'}`)
    if (archive.status === 'building') {
      // Requested before a restart of the platform: build it again.
      if (!isBuilding(ref, archive.id)) {
        void buildArchive(ctx.db, ctx.config.dataDir, ref, archive.id, (err) => request.log.error({ err, ref }, 'storage archive failed'))
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
    if (!subject?.startsWith(prefix)) throw new HttpError(403, 'This download link is invalid or has expired')
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
