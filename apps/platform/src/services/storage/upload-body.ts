import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import Busboy from '@fastify/busboy'
import { DEFAULT_MIME_TYPE } from './mime.js'
import { unsafeInput } from '../../unsafe-input.js'
import { invalidRequest } from './errors.js'
import { hasControlCharacter } from './request.js'

/** What an upload carries besides its bytes, and the bytes as a stream (never buffered). */
export interface UploadBody {
  stream: Readable
  contentType: string
  cacheControl: string
  userMetadata: Record<string, unknown> | null
}

const MAX_FIELD_BYTES = 64 * 1024

/**
 * storage-js sends a Blob or FormData as multipart/form-data (fields `cacheControl`, `metadata`,
 * `contentEncoding` first, then one file part), and anything else as the raw body with
 * `content-type`, `cache-control: max-age=N` and a base64 JSON `x-metadata` header. Resolves once the
 * file part starts, so the caller streams it straight to disk.
 */
export function readUploadBody(request: IncomingMessage): Promise<UploadBody> {
  const contentType = request.headers['content-type'] ?? ''
  if (!/^multipart\/form-data/i.test(contentType)) {
    return Promise.resolve({
      stream: request,
      contentType: contentType || DEFAULT_MIME_TYPE,
      cacheControl: request.headers['cache-control'] ?? 'no-cache',
      userMetadata: parseMetadata(headerText(request.headers['x-metadata']), true),
    })
  }
  return new Promise<UploadBody>((resolve, reject) => {
    const fields = new Map<string, string>()
    let started = false
    let parser: ReturnType<typeof Busboy>
    try {
      parser = Busboy({ headers: request.headers as { 'content-type': string }, limits: { files: 1, fields: 10, fieldSize: MAX_FIELD_BYTES } })
    } catch {
      reject(invalidRequest('The multipart body could not be read'))
      return
    }
    parser.on('field', (name, value) => fields.set(name, value))
    parser.on('file', (_field, stream, _filename, _encoding, mimeType) => {
      if (started) return stream.resume()
      started = true
      const cacheControl = fields.get('cacheControl')
      try {
        resolve({
          stream,
          contentType: checkedText(mimeType || DEFAULT_MIME_TYPE, 'content type'),
          cacheControl: cacheControl ? `max-age=${checkedText(cacheControl, 'cacheControl field')}` : 'no-cache',
          userMetadata: parseMetadata(fields.get('metadata'), false),
        })
      } catch (error) {
        stream.resume()
        reject(error)
      }
    })
    parser.on('error', (error) => (started ? undefined : reject(invalidRequest(`The multipart body could not be read: ${(error as Error).message}`))))
    parser.on('finish', () => {
      if (!started) reject(invalidRequest('The multipart body holds no file'))
    })
    request.pipe(parser)
  })
}

function parseMetadata(text: string | undefined, base64: boolean): Record<string, unknown> | null {
  if (!text) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(base64 ? Buffer.from(text, 'base64').toString('utf8') : text)
  } catch {
    throw invalidRequest('metadata must be a JSON object')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('metadata must be a JSON object')
  // Stored as jsonb, which holds no \u0000 and no unbounded nesting.
  const problem = unsafeInput(parsed, 'metadata')
  if (problem) throw invalidRequest(problem)
  return parsed as Record<string, unknown>
}

/** Part headers and fields of a multipart body are the client's bytes: no control characters in what is stored. */
function checkedText(value: string, what: string): string {
  if (hasControlCharacter(value)) throw invalidRequest(`The ${what} contains a control character`)
  return value
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
