import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { GatewayProject } from '../../gateway/project-directory.js'
import type { Caller } from './database.js'
import { readBodyUpTo } from '../../gateway/proxy.js'
import { unsafeInput } from '../../unsafe-input.js'
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

/** C0 and C1 control characters (NUL included): never part of a name, a bucket id or a query. */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

/**
 * True when a name could become a path somewhere else (an archive, a sync tool, a disk on Windows):
 * a backslash, or a segment that is empty or only dots and spaces ('..', '.', '. .', which Windows
 * trims to '..'), in the name as given, once or twice percent-decoded (a tool that decodes names),
 * and in its NFKC form (fullwidth '．．' and '＼', the two-dot leader '‥').
 */
export function isPathLikeName(name: string): boolean {
  const forms = [name]
  let decoded = name
  for (let round = 0; round < 2 && decoded.includes('%'); round++) {
    try {
      decoded = decodeURIComponent(decoded)
    } catch {
      break
    }
    forms.push(decoded)
  }
  for (const form of forms.flatMap((text) => [text, text.normalize('NFKC')])) {
    if (form.includes('\\') || form.split('/').some((part) => /^[.\s]*$/.test(part))) return true
  }
  return false
}

export function checkObjectName(name: string): string {
  if (typeof name !== 'string' || !name || Buffer.byteLength(name) > MAX_OBJECT_NAME_BYTES) throw invalidKey(String(name).slice(0, 100))
  if (hasControlCharacter(name) || isPathLikeName(name)) throw invalidKey(name.slice(0, 100))
  return name
}

/** storage-api's answer to a bucket id it cannot hold. */
export const invalidBucketName = () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid')

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
  const bucket = decoded.slice(0, slash)
  if (hasControlCharacter(bucket)) throw invalidBucketName()
  return { bucket, name: checkObjectName(decoded.slice(slash + 1).replace(/^\/+/, '')) }
}

/** One path segment (a bucket id), decoded. */
export function decodeSegment(encoded: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(encoded)
  } catch {
    throw invalidRequest('The path is not valid percent-encoding')
  }
  if (hasControlCharacter(decoded)) throw invalidBucketName()
  return decoded
}

/**
 * Refuses what no route could use, before routing: a NUL byte (which Postgres text cannot hold) in
 * the decoded path (as storage-api's Invalid key for object paths) or in the query string.
 */
export function checkRequestText(family: string | undefined, path: string, query: URLSearchParams): void {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // Bad escapes are answered by the route that decodes them.
  }
  if (decoded.includes('\u0000')) {
    if (family === 'object') throw invalidKey(decoded.replace(/^\/*object\/+/, '').slice(0, 100))
    throw invalidRequest('The path contains a NUL character (\\u0000), which is not accepted')
  }
  for (const [name, value] of query) {
    if (name.includes('\u0000') || value.includes('\u0000')) throw invalidRequest('The query string contains a NUL character (\\u0000), which is not accepted')
  }
}

const MAX_JSON_BYTES = 1024 * 1024

/** A JSON object body (bucket and object commands), at most 1 MB. */
export async function readJson(raw: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBodyUpTo(raw, MAX_JSON_BYTES)
  if (text === null) throw new StorageError(413, 'EntityTooLarge', 'The request body is too large')
  const size = text.length
  if (!size) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text.toString('utf8'))
  } catch {
    throw invalidRequest('The body must be a JSON object')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('The body must be a JSON object')
  const problem = unsafeInput(parsed, 'request body')
  if (problem) throw invalidRequest(problem)
  return parsed as Record<string, unknown>
}

/** The caller of a route that needs the project's key (every route but public objects and signed URLs). */
export function requireCaller(request: StorageRequest): Caller {
  if (!request.caller) throw new StorageError(401, 'InvalidJWT', 'A JWT of this project is required')
  return request.caller
}

/** The user an object or bucket is recorded as owned by: the JWT's subject, when there is one. */
export const ownerOf = (caller: Caller): string | null => (typeof caller.claims.sub === 'string' ? caller.claims.sub : null)
