import { randomUUID } from 'node:crypto'
import type { FunctionRow } from './store.js'

/** Quotes a form-data parameter the way browsers do (HTML's multipart/form-data encoding). */
const quoted = (value: string) => `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`

/**
 * The deployed function as multipart/form-data, the same shape a deploy sends: a metadata JSON
 * part, then one 'file' part per file. Any multipart parser (fetch's Response.formData()) reads it.
 */
export function functionBodyMultipart(row: FunctionRow, files: { name: string; content: Buffer }[]): { contentType: string; body: Buffer } {
  const boundary = `----stratum-${randomUUID()}`
  const metadata = {
    name: row.name,
    entrypoint_path: row.entrypoint_path,
    verify_jwt: row.verify_jwt,
    ...(row.import_map_path !== null ? { import_map_path: row.import_map_path } : {}),
  }
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(metadata)}\r\n`),
  ]
  for (const file of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(file.name)}\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file.content,
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) }
}
