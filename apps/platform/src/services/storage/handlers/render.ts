import { requireBucket } from '../buckets.js'
import { SERVICE_CALLER } from '../database.js'
import { invalidJwt, noSuchBucket, noSuchKey, StorageError } from '../errors.js'
import { imgproxySegments, parseSignedTransformations, parseTransformOptions, queryObject, type TransformOptions } from '../image-options.js'
import { requireObject, touchObject, type ObjectRow } from '../objects.js'
import { requireCaller, splitObjectPath, type StorageAnswer, type StorageRequest } from '../request.js'
import type { StorageContext } from '../context.js'
import { verifyToken } from '../tokens.js'

/**
 * storage-api's render routes (`/render/image/{public|authenticated|sign}/{bucket}/{name}`): the object is
 * found exactly as its plain download finds it (a public bucket as the platform; the caller's policies;
 * a signed URL's token), then rendered with the options of the query string, or of the token for a
 * signed URL (its query's options are ignored, as storage-api's schema drops them).
 */
export async function handleRender(ctx: StorageContext, request: StorageRequest, rest: string[]): Promise<StorageAnswer | null> {
  const [kind, access] = rest
  if (kind !== 'image' || (request.method !== 'GET' && request.method !== 'HEAD')) return null
  // Turned off, the routes are not served at all, as storage-api without image transformation does not register them.
  if (!(await ctx.imageTransformationEnabled(request.project.ref))) return null
  const encoded = rest.slice(2).join('/')
  if (access === 'public') {
    const options = parseTransformOptions(queryObject(request.query), 'querystring', true)
    const { bucket, name } = splitObjectPath(encoded)
    const row = await ctx.dbs.asCaller(request.project, SERVICE_CALLER, async (client) => {
      const found = await requireBucket(client, bucket)
      if (!found.public) throw noSuchBucket()
      return requireObject(client, bucket, name)
    })
    return sendRendering(ctx, request, row, options, null)
  }
  if (access === 'authenticated') {
    const caller = requireCaller(request)
    const options = parseTransformOptions(queryObject(request.query), 'querystring', true)
    const { bucket, name } = splitObjectPath(encoded)
    const row = await ctx.dbs.asCaller(request.project, caller, (client) => requireObject(client, bucket, name))
    void ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => touchObject(client, row.id)).catch(() => {})
    return sendRendering(ctx, request, row, options, null)
  }
  if (access === 'sign') {
    const { bucket, name } = splitObjectPath(encoded)
    const token = request.query.get('token')
    if (!token) throw new StorageError(400, 'InvalidRequest', "querystring must have required property 'token'")
    const claims = await verifyToken(request.project.jwtSecret, token, `${bucket}/${name}`)
    // An upload URL's token (it carries who uploads and whether to overwrite) opens no rendering, as on storage-api.
    if ('upsert' in claims || 'owner' in claims) throw invalidJwt('invalid signature: the token is not a download token')
    const options = parseSignedTransformations(typeof claims.transformations === 'string' ? claims.transformations : '')
    const row = await ctx.dbs.asCaller(request.project, SERVICE_CALLER, (client) => requireObject(client, bucket, name))
    const expires = typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toUTCString() : null
    return sendRendering(ctx, request, row, options, expires)
  }
  return null
}

/**
 * The rendering with storage-api's headers: the object's ETag, cache control (or the signed URL's expiry),
 * `X-Transformations` with what imgproxy was asked, `X-Robots-Tag: none`, and `?download` as an attachment.
 * The ETag names the object version and the URL the options, so a matching If-None-Match is answered 304.
 */
async function sendRendering(ctx: StorageContext, request: StorageRequest, row: ObjectRow, options: TransformOptions, expires: string | null): Promise<StorageAnswer> {
  if (!row.version) throw noSuchKey()
  const etag = headerText(row.metadata?.eTag, `"${row.version}"`)
  const headers: Record<string, string> = {
    etag,
    'last-modified': row.updated_at.toUTCString(),
    'x-robots-tag': 'none',
  }
  if (expires) headers.expires = expires
  else headers['cache-control'] = headerText(row.metadata?.cacheControl, 'no-cache')
  // The format follows Accept unless the options name one: caches keep one rendering per Accept (and per
  // Origin, which the gateway's CORS headers vary on: this header replaces theirs).
  if (!options.format) headers.vary = request.headers.origin ? 'Origin, Accept' : 'Accept'
  const segments = imgproxySegments(options)
  if (segments.length) headers['x-transformations'] = segments.join(',')
  const download = request.query.get('download')
  if (download !== null) {
    const filename = encodeURIComponent(download)
    headers['content-disposition'] = download === '' ? 'attachment;' : `attachment; filename=${filename}; filename*=UTF-8''${filename}`
  }
  if (request.headers['if-none-match'] === etag && ctx.files.exists(request.project.ref, row.version)) return { status: 304, headers }
  const accept = String(request.headers.accept ?? '')
  const rendered = await ctx.images.render(request.project.ref, row.version, options, /\bimage\/webp\b/i.test(accept))
  headers['content-type'] = rendered.contentType
  headers['content-length'] = String(rendered.size)
  if (request.method === 'HEAD') {
    rendered.stream?.destroy()
    return { status: 200, headers }
  }
  return rendered.stream ? { status: 200, headers, stream: rendered.stream } : { status: 200, headers, body: rendered.data }
}

/** A header value from row metadata (SQL can store anything there): text a header can carry, or the default. */
const headerText = (value: unknown, fallback: string): string =>
  typeof value === 'string' && /^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(value) ? value : fallback
