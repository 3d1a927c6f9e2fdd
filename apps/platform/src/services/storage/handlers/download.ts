import path from 'node:path'
import { noSuchKey, StorageError } from '../errors.js'
import type { ObjectRow } from '../objects.js'
import type { StorageAnswer, StorageRequest } from '../request.js'
import type { StorageContext } from '../context.js'

/**
 * An object's bytes as storage-api sends them: its type, cache control, ETag and Last-Modified; byte
 * ranges (206, or 416 outside the file); 304 for a matching If-None-Match; `?download` as an
 * attachment. HEAD answers the same headers without the body.
 */
export function sendObject(ctx: StorageContext, request: StorageRequest, row: ObjectRow): StorageAnswer {
  // The file's own size, not the row's metadata (rows can be edited with SQL): Content-Length never promises more.
  const size = row.version ? ctx.files.sizeOf(request.project.ref, row.version) : null
  if (!row.version || size === null) throw noSuchKey()
  const etag = headerText(row.metadata?.eTag, `"${row.version}"`)
  const headers: Record<string, string> = {
    'content-type': headerText(row.metadata?.mimetype, 'application/octet-stream'),
    'cache-control': headerText(row.metadata?.cacheControl, 'no-cache'),
    etag,
    'last-modified': row.updated_at.toUTCString(),
    'accept-ranges': 'bytes',
  }
  const download = request.query.get('download')
  if (download !== null) {
    const filename = download || path.posix.basename(row.name)
    headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`
  }
  if (request.headers['if-none-match'] === etag) return { status: 304, headers }
  const range = parseRange(request.headers.range, size)
  if (range === 'invalid') {
    return { status: 416, headers: { 'content-range': `bytes */${size}` }, body: new StorageError(416, 'InvalidRange', 'The requested range is not satisfiable').body() }
  }
  const head = request.method === 'HEAD'
  if (range) {
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
    headers['content-length'] = String(range.end - range.start + 1)
    return { status: 206, headers, stream: head ? undefined : ctx.files.open(request.project.ref, row.version, range) }
  }
  headers['content-length'] = String(size)
  return { status: 200, headers, stream: head ? undefined : ctx.files.open(request.project.ref, row.version) }
}

/** A header value from row metadata (SQL can store anything there): text a header can carry, or the default. */
const headerText = (value: unknown, fallback: string): string =>
  typeof value === 'string' && /^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(value) ? value : fallback

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; several ranges are answered whole, as many servers do. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, from, to] = match
  if (from === '' && to === '') return 'invalid'
  let start: number
  let end: number
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0) return 'invalid'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(from)
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  }
  if (start >= size || start > end) return 'invalid'
  return { start, end }
}
