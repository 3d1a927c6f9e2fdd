import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { GatewayProject } from '../../gateway/project-directory.js'
import type { Caller } from './database.js'
import { invalidKey, invalidRequest, StorageError } from './errors.js'

/** One request below /storage/v1, as the gateway hands it over. */
export interface StorageRequest {
  project: GatewayProject
  method: string
  /** Below /storage/v1, without the query, still percent-encoded. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  raw: IncomingMessage
  /** The key's verified role and claims; null on the open routes (public objects, signed URLs). */
  caller: Caller | null
}

/** What the service answers: JSON, a file stream, or nothing (HEAD, 304). */
export interface StorageAnswer {
  status: number
  headers?: Record<string, string>
  body?: unknown
  stream?: Readable
}

export const json = (body: unknown, status = 200): StorageAnswer => ({ status, body })

/** Object names as storage-api accepts them, minus what could name a path on someone's disk later. */
export const MAX_OBJECT_NAME_BYTES = 1024

const hasControlCharacter = (text: string) => [...text].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127)

export function checkObjectName(name: string): string {
  if (!name || Buffer.byteLength(name) > MAX_OBJECT_NAME_BYTES) throw invalidKey(name.slice(0, 100))
  // Control characters, and '.'/'..' segments (an archive or a sync tool would read them as paths).
  if (hasControlCharacter(name) || name.split('/').some((part) => part === '' || part === '.' || part === '..')) throw invalidKey(name.slice(0, 100))
  return name
}

/** `bucket/some/object.png` (percent-encoded) -> its bucket and object name. */
export function splitObjectPath(encoded: string): { bucket: string; name: string } {
  let decoded: string
  try {
    decoded = encoded.split('/').map((part) => decodeURIComponent(part)).join('/')
  } catch {
    throw invalidRequest('The object path is not valid percent-encoding')
  }
  const slash = decoded.indexOf('/')
  if (slash <= 0) throw invalidRequest('The path must name a bucket and an object')
  return { bucket: decoded.slice(0, slash), name: checkObjectName(decoded.slice(slash + 1).replace(/^\/+/, '')) }
}

export function decodeSegment(encoded: string): string {
  try {
    return decodeURIComponent(encoded)
  } catch {
    throw invalidRequest('The path is not valid percent-encoding')
  }
}

const MAX_JSON_BYTES = 1024 * 1024

/** A JSON object body (bucket and object commands), at most 1 MB. */
export async function readJson(raw: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_JSON_BYTES) throw new StorageError(413, 'EntityTooLarge', 'The request body is too large')
    chunks.push(chunk)
  }
  if (!size) return {}
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // answered below
  }
  throw invalidRequest('The body must be a JSON object')
}

/** The caller of a route that needs the project's key (every route but public objects and signed URLs). */
export function requireCaller(request: StorageRequest): Caller {
  if (!request.caller) throw new StorageError(401, 'InvalidJWT', 'A JWT of this project is required')
  return request.caller
}

/** The user an object or bucket is recorded as owned by: the JWT's subject, when there is one. */
export const ownerOf = (caller: Caller): string | null => (typeof caller.claims.sub === 'string' ? caller.claims.sub : null)
