import { AllowedMimeTypes, BucketName, BucketType, FileSizeLimit } from '@stratum/contracts'
import { z } from 'zod'
import { deleteBucketRow, findBucket, insertBucket, listBuckets, toBucket, updateBucket } from '../buckets.js'
import type { Caller } from '../database.js'
import { fromDatabaseError, invalidRequest, noSuchBucket, StorageError } from '../errors.js'
import { deleteAllObjects } from '../objects.js'
import { decodeSegment, json, readJson, type StorageAnswer, type StorageRequest, ownerOf, requireCaller } from '../request.js'
import type { StorageContext } from '../context.js'

/** storage-api's units are decimal: '20MB' is 20,000,000 bytes. */
const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 }

/** storage-js passes fileSizeLimit as bytes or as text such as '20MB', read as storage-api reads it (3 digits kept). */
const SizeLimit = z.preprocess((value) => {
  if (typeof value !== 'string') return value
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value)
  if (!match) return value
  const [, amount, unit] = match
  return unit ? Math.round(Number(Number.parseFloat(amount!).toPrecision(3)) * UNITS[unit.toLowerCase()]!) : Number(amount)
}, FileSizeLimit)

const CreateBody = z.object({
  id: BucketName.optional(),
  name: BucketName,
  public: z.boolean({ error: 'public must be true or false' }).optional().default(false),
  file_size_limit: SizeLimit.optional().default(null),
  allowed_mime_types: AllowedMimeTypes.optional().default(null),
  type: BucketType.optional().default('STANDARD'),
})

const UpdateBody = z.object({
  public: z.boolean({ error: 'public must be true or false' }).optional(),
  file_size_limit: SizeLimit.optional(),
  allowed_mime_types: AllowedMimeTypes.optional(),
})

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body)
  if (!result.success) throw invalidRequest(result.error.issues[0]?.message ?? 'Invalid request body')
  return result.data
}

/** Database errors the caller caused (policies, taken names) as storage-api answers them. */
export async function asStorageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw fromDatabaseError(error) ?? error
  }
}

export async function handleBuckets(ctx: StorageContext, request: StorageRequest, rest: string[]): Promise<StorageAnswer | null> {
  const caller = requireCaller(request)
  const { method, project } = request
  const id = rest[0] === undefined ? undefined : decodeSegment(rest[0])

  if (method === 'GET' && id === undefined) {
    const query = request.query
    const rows = await ctx.dbs.asCaller(project, caller, (client) =>
      listBuckets(client, {
        limit: numberParam(query.get('limit')),
        offset: numberParam(query.get('offset')),
        search: query.get('search') ?? undefined,
        sortColumn: query.get('sortColumn') ?? undefined,
        sortOrder: query.get('sortOrder') ?? undefined,
      }),
    )
    return json(rows.map(toBucket))
  }
  if (method === 'POST' && id === undefined) {
    const body = parse(CreateBody, await readJson(request.raw))
    if (body.id !== undefined && body.id !== body.name) throw invalidRequest('Bucket id and name must be the same')
    const row = await asStorageError(
      ctx.dbs.asCaller(project, caller, (client) =>
        insertBucket(client, { id: body.name, public: body.public, file_size_limit: body.file_size_limit, allowed_mime_types: body.allowed_mime_types, type: body.type }, ownerOf(caller)),
      ),
    )
    return json({ name: row.name })
  }
  if (id === undefined) return null
  if (method === 'GET' && rest.length === 1) {
    const row = await ctx.dbs.asCaller(project, caller, (client) => findBucket(client, id))
    if (!row) throw noSuchBucket()
    // storage-api answers one bucket without its `type` (only the list selects it); storage-js's suite compares
    // the whole object.
    const { type: _listOnly, ...bucket } = toBucket(row)
    return json(bucket)
  }
  if (method === 'PUT' && rest.length === 1) {
    const changes = parse(UpdateBody, await readJson(request.raw))
    const row = await asStorageError(ctx.dbs.asCaller(project, caller, (client) => updateBucket(client, id, changes)))
    if (!row) throw noSuchBucket()
    return json({ message: 'Successfully updated' })
  }
  if (method === 'POST' && rest.length === 2 && rest[1] === 'empty') {
    await emptyBucket(ctx, request, caller, id)
    // storage-api's words (it empties in the background); here the bucket is empty when this answers.
    return json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' })
  }
  if (method === 'DELETE' && rest.length === 1) {
    await deleteBucket(ctx, request, caller, id)
    return json({ message: 'Successfully deleted' })
  }
  return null
}

/** Deletes the objects the caller may delete, then their files once that committed. */
export async function emptyBucket(ctx: StorageContext, request: Pick<StorageRequest, 'project'>, caller: Caller, id: string): Promise<number> {
  const removed = await asStorageError(
    ctx.dbs.asCaller(request.project, caller, async (client) => {
      if (!(await findBucket(client, id))) throw noSuchBucket()
      return deleteAllObjects(client, id)
    }),
  )
  ctx.files.remove(request.project.ref, removed.map((row) => row.version))
  return removed.length
}

/** storage-api refuses to delete a bucket that still holds objects. */
export async function deleteBucket(ctx: StorageContext, request: Pick<StorageRequest, 'project'>, caller: Caller, id: string): Promise<void> {
  try {
    const deleted = await ctx.dbs.asCaller(request.project, caller, (client) => deleteBucketRow(client, id))
    if (!deleted) throw noSuchBucket()
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw new StorageError(409, 'InvalidRequest', 'The bucket you tried to delete is not empty')
    throw fromDatabaseError(error) ?? error
  }
}

function numberParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0) throw invalidRequest('limit and offset must be whole numbers')
  return number
}
