import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { requireBucket } from '../buckets.js'
import { SERVICE_CALLER } from '../database.js'
import { invalidRequest, noSuchBucket, noSuchKey, StorageError } from '../errors.js'
import { deleteObjects, findObject, listLevel, moveObject, requireObject, touchObject, writeObject, type ObjectRow } from '../objects.js'
import { checkObjectName, decodeSegment, json, readJson, splitObjectPath, type StorageAnswer, type StorageRequest, ownerOf, requireCaller } from '../request.js'
import type { StorageContext } from '../context.js'
import { parseTransformOptions, signedTransformations } from '../image-options.js'
import { LIST_V2_MAX_LIMIT, listObjectsV2 } from '../list-v2.js'
import { signToken, UPLOAD_URL_SECONDS, verifyToken } from '../tokens.js'
import { asStorageError } from './buckets.js'
import { sendObject } from './download.js'
import { probeWrite, upload } from './upload.js'

const MAX_LIST_LIMIT = 1000
const MAX_SIGN_SECONDS = 10 * 365 * 24 * 3600

const ListBody = z.object({
  prefix: z.string().max(1024).optional().default(''),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().default(100),
  offset: z.number().int().min(0).optional().default(0),
  search: z.string().max(1024).optional().default(''),
  sortBy: z
    .object({ column: z.string().optional().default('name'), order: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional().default('asc') })
    .optional()
    .default({ column: 'name', order: 'asc' }),
})

const ListV2Body = z.object({
  prefix: z.string().max(1024).optional().default(''),
  // storage-api takes any positive count and gives at most its largest page.
  limit: z.number().int().min(1).optional().default(LIST_V2_MAX_LIMIT).transform((limit) => Math.min(limit, LIST_V2_MAX_LIMIT)),
  cursor: z.string().max(4096).optional(),
  with_delimiter: z.boolean().optional().default(false),
  sortBy: z
    .object({ column: z.enum(['name', 'updated_at', 'created_at']), order: z.enum(['asc', 'desc']).optional().default('asc') })
    .optional()
    .default({ column: 'name', order: 'asc' }),
})

const MoveBody = z.object({
  bucketId: z.string().min(1),
  sourceKey: z.string().min(1),
  destinationKey: z.string().min(1),
  destinationBucket: z.string().min(1).nullish(),
})

const ExpiresIn = z.number({ error: 'expiresIn must be a number of seconds' }).int().min(1, 'expiresIn must be at least 1').max(MAX_SIGN_SECONDS)

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw invalidRequest(issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid request body')
  }
  return result.data
}

const upsertHeader = (request: StorageRequest) => String(request.headers['x-upsert'] ?? '').toLowerCase() === 'true'
const encodeName = (name: string) => name.split('/').map(encodeURIComponent).join('/')

/** Routes below /object (rest = the path segments after it, still encoded). */
export async function handleObjects(ctx: StorageContext, request: StorageRequest, rest: string[]): Promise<StorageAnswer | null> {
  const { method } = request
  const [head, second] = rest
  const below = (from: number) => rest.slice(from).join('/')
  const read = method === 'GET' || method === 'HEAD'

  if (head === 'public' && read) return publicDownload(ctx, request, below(1))
  if (head === 'authenticated' && read) return callerDownload(ctx, request, below(1))
  if (head === 'sign' && read) return signedDownload(ctx, request, below(1))
  if (head === 'upload' && second === 'sign' && method === 'PUT') return signedUpload(ctx, request, below(2))
  if (head === 'upload' && second === 'sign' && method === 'POST') return createUploadUrl(ctx, request, below(2))
  if (head === 'info' && method === 'GET') {
    const from = second === 'public' || second === 'authenticated' ? 2 : 1
    return info(ctx, request, below(from))
  }
  if (head === 'list' && method === 'POST' && rest.length === 2) return list(ctx, request, decodeSegment(second!))
  // Before the upload route: POST /object/{bucket}/{name} would take it for an upload into a bucket named 'list-v2'.
  if (head === 'list-v2' && method === 'POST' && rest.length === 2) return listV2(ctx, request, decodeSegment(second!))
  if (head === 'move' && method === 'POST' && rest.length === 1) return move(ctx, request)
  if (head === 'copy' && method === 'POST' && rest.length === 1) return copy(ctx, request)
  if (head === 'sign' && method === 'POST') return rest.length === 2 ? signMany(ctx, request, decodeSegment(second!)) : signOne(ctx, request, below(1))
  if (head === undefined) return null
  if (rest.length === 1 && method === 'DELETE') return removeMany(ctx, request, decodeSegment(head))
  if (rest.length < 2) return null
  const caller = requireCaller(request)
  const target = splitObjectPath(below(0))
  if (read) return callerDownload(ctx, request, below(0))
  if (method === 'POST' || method === 'PUT') {
    // PUT (update) replaces; POST creates, or replaces with x-upsert: true.
    return upload(ctx, request, caller, { ...target, upsert: method === 'PUT' || upsertHeader(request), ownerId: ownerOf(caller) })
  }
  if (method === 'DELETE') {
    const removed = await asStorageError(ctx.dbs.asCaller(request.project, caller, (client) => deleteObjects(client, target.bucket, [target.name])))
    if (!removed.length) throw noSuchKey()
    ctx.files.remove(request.project.ref, removed.map((row) => row.version))
    return json({ message: 'Successfully deleted' })
  }
  return null
}

async function publicDownload(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const { bucket, name } = splitObjectPath(encoded)
  const row = await ctx.dbs.asCaller(request.project, SERVICE_CALLER, async (client) => {
    const found = await requireBucket(client, bucket)
    if (!found.public) throw noSuchBucket()
    return requireObject(client, bucket, name)
  })
  return sendObject(ctx, request, row)
}

async function callerDownload(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const { bucket, name } = splitObjectPath(encoded)
  const row = await ctx.dbs.asCaller(request.project, caller, (client) => requireObject(client, bucket, name))
  void ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => touchObject(client, row.id)).catch(() => {})
  return sendObject(ctx, request, row)
}

async function signedDownload(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const { bucket, name } = splitObjectPath(encoded)
  const token = request.query.get('token')
  if (!token) throw new StorageError(400, 'InvalidRequest', 'querystring must have required property \'token\'')
  await verifyToken(request.project.jwtSecret, token, `${bucket}/${name}`)
  const row = await ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => requireObject(client, bucket, name))
  return sendObject(ctx, request, row)
}

async function signedUpload(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const target = splitObjectPath(encoded)
  const token = request.query.get('token')
  if (!token) throw new StorageError(400, 'InvalidRequest', 'querystring must have required property \'token\'')
  const claims = await verifyToken(request.project.jwtSecret, token, `${target.bucket}/${target.name}`)
  // Who may write was decided when the URL was made; the upload runs as the platform with that owner.
  const ownerId = typeof claims.owner === 'string' ? claims.owner : null
  return upload(ctx, request, SERVICE_CALLER, { ...target, upsert: claims.upsert === true, ownerId })
}

async function createUploadUrl(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const target = splitObjectPath(encoded)
  const upsert = upsertHeader(request)
  await ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => requireBucket(client, target.bucket))
  await probeWrite(ctx, request, caller, { ...target, upsert, ownerId: ownerOf(caller) })
  const token = await signToken(request.project.jwtSecret, { url: `${target.bucket}/${target.name}`, owner: ownerOf(caller), upsert }, UPLOAD_URL_SECONDS)
  return json({ url: `/object/upload/sign/${target.bucket}/${encodeName(target.name)}?token=${token}`, token })
}

async function info(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const { bucket, name } = splitObjectPath(encoded)
  const row = await ctx.dbs.asCaller(request.project, caller, (client) => requireObject(client, bucket, name))
  return json({
    id: row.id,
    version: row.version,
    name: row.name,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata,
    // storage-api's info answer has no updated_at or last_accessed_at: storage-js's FileObjectV2 has neither.
    last_modified: row.updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
  })
}

async function list(ctx: StorageContext, request: StorageRequest, bucket: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const body = parse(ListBody, await readJson(request.raw))
  await requireBucketAsService(ctx, request, bucket)
  const items = await ctx.dbs.asCaller(request.project, caller, (client) =>
    listLevel(client, bucket, {
      prefix: body.prefix.replace(/^\/+/, ''),
      limit: body.limit,
      offset: body.offset,
      search: body.search,
      sortColumn: body.sortBy.column,
      sortOrder: body.sortBy.order.toLowerCase() as 'asc' | 'desc',
    }),
  )
  return json(items)
}

async function listV2(ctx: StorageContext, request: StorageRequest, bucket: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  // No bucket check: storage-api lists an unknown bucket as empty.
  const body = parse(ListV2Body, await readJson(request.raw))
  const page = await ctx.dbs.asCaller(request.project, caller, (client) =>
    listObjectsV2(client, bucket, {
      prefix: body.prefix,
      limit: body.limit,
      cursor: body.cursor,
      withDelimiter: body.with_delimiter,
      sortColumn: body.sortBy.column,
      sortOrder: body.sortBy.order,
    }),
  )
  return json(page)
}

async function requireBucketAsService(ctx: StorageContext, request: StorageRequest, bucket: string): Promise<void> {
  await ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => requireBucket(client, bucket))
}

async function removeMany(ctx: StorageContext, request: StorageRequest, bucket: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const body = parse(z.object({ prefixes: z.array(z.string().min(1)).min(1, 'prefixes must name at least one object').max(1000) }), await readJson(request.raw))
  await requireBucketAsService(ctx, request, bucket)
  const removed = await asStorageError(ctx.dbs.asCaller(request.project, caller, (client) => deleteObjects(client, bucket, body.prefixes)))
  ctx.files.remove(request.project.ref, removed.map((row) => row.version))
  return json(removed.map(fileObject))
}

async function move(ctx: StorageContext, request: StorageRequest): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const body = parse(MoveBody, await readJson(request.raw))
  const to = { bucket: body.destinationBucket ?? body.bucketId, name: checkObjectName(body.destinationKey) }
  if (to.bucket !== body.bucketId) await requireBucketAsService(ctx, request, to.bucket)
  await asStorageError(ctx.dbs.asCaller(request.project, caller, (client) => moveObject(client, { bucket: body.bucketId, name: body.sourceKey }, to)))
  return json({ message: 'Successfully moved' })
}

async function copy(ctx: StorageContext, request: StorageRequest): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const body = parse(MoveBody, await readJson(request.raw))
  const to = { bucket: body.destinationBucket ?? body.bucketId, name: checkObjectName(body.destinationKey) }
  await requireBucketAsService(ctx, request, to.bucket)
  const source = await ctx.dbs.asCaller(request.project, caller, (client) => requireObject(client, body.bucketId, body.sourceKey))
  if (!source.version) throw noSuchKey()
  const version = randomUUID()
  await ctx.files.copy(request.project.ref, source.version, version)
  try {
    const { row, replaced } = await asStorageError(
      ctx.dbs.asCaller(request.project, caller, (client) =>
        writeObject(client, { bucket: to.bucket, name: to.name, ownerId: ownerOf(caller), version, metadata: source.metadata!, userMetadata: source.user_metadata }, upsertHeader(request)),
      ),
    )
    ctx.files.remove(request.project.ref, [replaced])
    return json({ Id: row.id, Key: `${to.bucket}/${to.name}` })
  } catch (error) {
    ctx.files.remove(request.project.ref, [version])
    throw error
  }
}

/**
 * A signed download URL; with `transform` (storage-api's transformation options) a URL of the rendering,
 * `/render/image/sign/...`, whose token carries the options (they cannot be changed once signed).
 */
async function signOne(ctx: StorageContext, request: StorageRequest, encoded: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const { bucket, name } = splitObjectPath(encoded)
  const body = await readJson(request.raw)
  const { expiresIn } = parse(z.object({ expiresIn: ExpiresIn }), body)
  const transformations = signingTransformations(body.transform)
  await ctx.dbs.asCaller(request.project, caller, (client) => requireObject(client, bucket, name))
  const token = await signToken(request.project.jwtSecret, { url: `${bucket}/${name}`, ...(transformations ? { transformations } : {}) }, expiresIn)
  return json({ signedURL: `/${transformations ? 'render/image' : 'object'}/sign/${bucket}/${name}?token=${token}` })
}

function signingTransformations(transform: unknown): string {
  if (transform === undefined) return ''
  if (!transform || typeof transform !== 'object' || Array.isArray(transform)) throw invalidRequest('body/transform must be object')
  return signedTransformations(parseTransformOptions(transform as Record<string, unknown>, 'body/transform', false))
}

async function signMany(ctx: StorageContext, request: StorageRequest, bucket: string): Promise<StorageAnswer> {
  const caller = requireCaller(request)
  const body = parse(z.object({ expiresIn: ExpiresIn, paths: z.array(z.string().min(1)).min(1).max(1000) }), await readJson(request.raw))
  const visible = await ctx.dbs.asCaller(request.project, caller, async (client) => {
    const names = new Set<string>()
    for (const name of body.paths) if (await findObject(client, bucket, name)) names.add(name)
    return names
  })
  const answers = []
  for (const name of body.paths) {
    if (!visible.has(name)) {
      answers.push({ error: 'Either the object does not exist or you do not have access to it', path: name, signedURL: null })
      continue
    }
    const token = await signToken(request.project.jwtSecret, { url: `${bucket}/${name}` }, body.expiresIn)
    answers.push({ error: null, path: name, signedURL: `/object/sign/${bucket}/${name}?token=${token}` })
  }
  return json(answers)
}

/** storage-api's FileObject. */
export const fileObject = (row: ObjectRow) => ({
  name: row.name,
  bucket_id: row.bucket_id,
  owner: row.owner,
  owner_id: row.owner_id,
  id: row.id,
  version: row.version,
  updated_at: row.updated_at.toISOString(),
  created_at: row.created_at.toISOString(),
  last_accessed_at: row.last_accessed_at.toISOString(),
  metadata: row.metadata,
  user_metadata: row.user_metadata,
})
