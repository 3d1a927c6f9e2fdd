import { drainBody } from '../../../gateway/proxy.js'
import { requireBucket } from '../buckets.js'
import { SERVICE_CALLER, type Caller } from '../database.js'
import { tooLarge } from '../errors.js'
import { checkMimeType, DEFAULT_MIME_TYPE } from '../mime.js'
import { objectMetadata, writeObject } from '../objects.js'
import type { StorageAnswer, StorageRequest } from '../request.js'
import { json } from '../request.js'
import type { StorageContext } from '../context.js'
import { readUploadBody } from '../upload-body.js'
import { asStorageError } from './buckets.js'

/** Thrown inside a probe transaction so that it rolls back after the checks passed. */
class ProbeDone extends Error {}

export interface UploadTarget {
  bucket: string
  name: string
  upsert: boolean
  ownerId: string | null
}

/**
 * Answers whether `caller` may write this object, without writing it: the insert (or upsert) runs in a
 * transaction that is rolled back. Done before reading the body, so a refused upload of a large file
 * is refused at once instead of after the last byte.
 */
export async function probeWrite(ctx: StorageContext, request: Pick<StorageRequest, 'project'>, caller: Caller, target: UploadTarget): Promise<void> {
  try {
    await asStorageError(
      ctx.dbs.asCaller(request.project, caller, async (client) => {
        const metadata = objectMetadata(0, '""', DEFAULT_MIME_TYPE, 'no-cache')
        await writeObject(client, { bucket: target.bucket, name: target.name, ownerId: target.ownerId, version: '00000000-0000-0000-0000-000000000000', metadata, userMetadata: null }, target.upsert)
        throw new ProbeDone()
      }),
    )
  } catch (error) {
    if (!(error instanceof ProbeDone)) throw error
  }
}

/**
 * An upload: the bucket's rules (size, MIME type) and the caller's policies are checked, the bytes stream
 * to a new file, then the row is written as the caller; the replaced version's file goes after commit.
 */
export async function upload(ctx: StorageContext, request: StorageRequest, caller: Caller, target: UploadTarget): Promise<StorageAnswer> {
  const { project } = request
  const bucket = await ctx.dbs.asCaller(project, SERVICE_CALLER, (client) => requireBucket(client, target.bucket))
  const declared = Number(request.headers['content-length'])
  const limit = Math.min(bucket.file_size_limit === null ? Infinity : Number(bucket.file_size_limit), await ctx.projectMaxFileBytes(project.ref))
  const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '')
  if (!multipart && Number.isFinite(declared) && declared > limit) {
    drainBody(request.raw)
    throw tooLarge()
  }
  await probeWrite(ctx, request, caller, target)
  const body = await readUploadBody(request.raw)
  try {
    checkMimeType(body.contentType, bucket.allowed_mime_types)
  } catch (error) {
    body.stream.resume()
    throw error
  }
  const file = await ctx.files.write(project.ref, body.stream, limit)
  try {
    const metadata = objectMetadata(file.size, file.etag, body.contentType, body.cacheControl)
    const { row, replaced } = await asStorageError(
      ctx.dbs.asCaller(project, caller, (client) =>
        writeObject(client, { bucket: target.bucket, name: target.name, ownerId: target.ownerId, version: file.version, metadata, userMetadata: body.userMetadata ?? {} }, target.upsert),
      ),
    )
    ctx.files.remove(project.ref, [replaced])
    return json({ Id: row.id, Key: `${target.bucket}/${target.name}` })
  } catch (error) {
    ctx.files.remove(project.ref, [file.version])
    throw error
  }
}
