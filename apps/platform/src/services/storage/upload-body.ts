import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import Busboy from '@fastify/busboy'
import { DEFAULT_MIME_TYPE } from './mime.js'
import { invalidRequest } from './errors.js'

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
          contentType: mimeType || DEFAULT_MIME_TYPE,
          cacheControl: cacheControl ? `max-age=${cacheControl}` : 'no-cache',
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
  try {
    const parsed: unknown = JSON.parse(base64 ? Buffer.from(text, 'base64').toString('utf8') : text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // answered below
  }
  throw invalidRequest('metadata must be a JSON object')
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
